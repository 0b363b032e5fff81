"""FHIR R4: a record's export validated resource by resource with fhir.resources' R4B models (R4's structure and
cardinality), and checked against the store's own data through the JSON API."""
import collections
import json
import re
import tempfile

import pytest
from fhir.resources.R4B import get_fhir_model_class

from careapp import DEMO_CLINICIAN, served, sign_in, urlopen


@pytest.fixture(scope="module")
def maria():
    """The demo clinic, the clinician signed in; Maria Santos's record (four weeks of history)."""
    with tempfile.TemporaryDirectory() as directory, served(directory, args=["--demo-patients", "2"]) as origin:
        sign_in(origin, DEMO_CLINICIAN)
        home = urlopen(origin + "/").read().decode()
        path = re.search(r'class="ock-patient-name" href="(/records/([0-9a-z]+))/care">Maria Santos<', home)
        yield {"origin": origin, "base": origin + path.group(1), "record": path.group(2)}


def api(base, path):
    items, offset = [], 0
    while True:
        page = json.load(urlopen(f"{base}/api/v1/{path}?limit=500&offset={offset}", headers={"Accept": "application/json"}))
        items += page
        if len(page) < 500:
            return items
        offset += 500


def test_every_exported_resource_validates_and_says_what_the_store_holds(maria):
    response = urlopen(maria["base"] + "/fhir/export")
    assert response.headers["Content-Type"] == "application/fhir+json"
    bundle = json.loads(response.read())
    get_fhir_model_class("Bundle").model_validate(bundle)
    resources = [entry["resource"] for entry in bundle["entry"]]
    for resource in resources:
        get_fhir_model_class(resource["resourceType"]).model_validate(resource)
    kinds = collections.Counter(resource["resourceType"] for resource in resources)
    assert kinds["Patient"] == 1 and kinds["CareTeam"] == 1 and kinds["Consent"] == 1, kinds
    assert kinds["CarePlan"] >= 1 and kinds["Questionnaire"] >= 1, kinds
    ids = [(resource["resourceType"], resource["id"]) for resource in resources]
    assert len(ids) == len(set(ids))

    patient = next(r for r in resources if r["resourceType"] == "Patient")
    assert patient["id"] == maria["record"] and patient["name"][0]["family"] == "Santos"
    # Every reference to a resource of the Bundle resolves.
    present = {f"{kind}/{id}" for kind, id in ids}
    references = re.findall(r'"reference": "([A-Za-z]+/[^"]+)"', json.dumps(bundle))
    assert references and set(references) <= present

    # The care plan's activities: one per schedule element of each task, each with its timing.
    tasks = api(maria["base"], "tasks")
    activities = [a for r in resources if r["resourceType"] == "CarePlan" for a in r.get("activity", [])]
    assert len(activities) == sum(len(task["schedule"]["elements"]) for task in tasks)
    daily = [a for a in activities if a["detail"]["scheduledTiming"]["repeat"].get("periodUnit") == "d"]
    assert daily and all(re.fullmatch(r"\d\d:\d\d:\d\d", a["detail"]["scheduledTiming"]["repeat"]["timeOfDay"][0])
                         for a in daily if "timeOfDay" in a["detail"]["scheduledTiming"]["repeat"])

    # Observations: one per value of every outcome that is neither a survey's nor the consent's; kg in UCUM.
    task_ids = {task["uuid"]: task["id"] for task in tasks}
    outcomes = [o for o in api(maria["base"], "outcomes") if not o.get("deletedDate")]
    surveys = {"check-in", "onboarding"}
    values = sum(len(o["values"]) for o in outcomes if task_ids.get(o["taskUUID"]) not in surveys)
    observations = [r for r in resources if r["resourceType"] == "Observation"]
    assert len(observations) == values > 0
    weights = [o["valueQuantity"] for o in observations if o.get("valueQuantity", {}).get("unit") == "kg"]
    assert weights and all(w["system"] == "http://unitsofmeasure.org" and w["code"] == "kg" for w in weights)

    # Check-ins: a QuestionnaireResponse each, answering its Questionnaire's items.
    responses = [r for r in resources if r["resourceType"] == "QuestionnaireResponse"]
    assert len(responses) == sum(1 for o in outcomes if task_ids.get(o["taskUUID"]) == "check-in") > 0
    questionnaires = {r["url"]: r for r in resources if r["resourceType"] == "Questionnaire"}
    for response in responses:
        links = {item["linkId"] for item in questionnaires[response["questionnaire"]]["item"]}
        assert {item["linkId"] for item in response["item"]} <= links

    # The consent and the care team.
    consent = next(r for r in resources if r["resourceType"] == "Consent")
    assert consent["performer"][0]["display"] == "Maria Santos" and consent["patient"]["reference"] == f"Patient/{maria['record']}"
    team = next(r for r in resources if r["resourceType"] == "CareTeam")
    assert {(p["member"]["display"], p["role"][0]["text"]) for p in team["participant"]} >= {("Maria Santos", "patient"),
                                                                                              ("Dr. Jordan Lee", "clinician")}
