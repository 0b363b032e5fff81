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


def post_bundle(origin, body, content_type="application/fhir+json", role=None):
    """POSTs `body` (bytes) to /records/import; the status, the headers and the JSON answer."""
    import urllib.error
    url = origin + "/records/import" + (f"?role={role}" if role else "")
    try:
        response = urlopen(url, data=body, headers={"Content-Type": content_type, "Origin": origin})
        return response.status, response.headers, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, error.headers, json.loads(error.read())


def by_key(bundle, old_id=None, new_id=None):
    """The Bundle's resources by (type, id), the record's id written as `old_id` wherever `new_id` stands; the
    CareTeam (the members of the record, accounts of this server) and the care team's work left out."""
    text = json.dumps(bundle)
    if new_id:
        text = text.replace(new_id, old_id)
    resources = [entry["resource"] for entry in json.loads(text)["entry"]]
    # The care team's work comes back with ids of its own, and what a reader sees of it depends on their role
    # (test_messages checks its round trip).
    return {(r["resourceType"], r["id"]): r for r in resources if r["resourceType"] not in ("CareTeam", "Communication", "Flag", "Task")}


def test_an_exported_record_imports_into_a_new_record_that_exports_the_same_resources(maria):
    exported = urlopen(maria["base"] + "/fhir/export").read()
    status, headers, answer = post_bundle(maria["origin"], exported, role="caregiver")
    assert status == 201, answer
    get_fhir_model_class("OperationOutcome").model_validate(answer)
    new_id = re.fullmatch(r"/records/([0-9a-z]+)/care", headers["Location"]).group(1)
    assert new_id != maria["record"]
    again = json.loads(urlopen(maria["origin"] + f"/records/{new_id}/fhir/export").read())
    before, after = by_key(json.loads(exported)), by_key(again, maria["record"], new_id)
    assert set(before) == set(after)
    for key in before:
        assert before[key] == after[key], key
    # The new record is the importer's, and its pages show the imported care.
    home = urlopen(maria["origin"] + "/").read().decode()
    assert f"/records/{new_id}/care" in home


def test_bad_bundles_are_refused_with_an_operation_outcome_and_import_nothing(maria):
    exported = json.loads(urlopen(maria["base"] + "/fhir/export").read())
    home_before = urlopen(maria["origin"] + "/").read().decode().count("ock-patient-name")

    def without(kind):
        bundle = json.loads(json.dumps(exported))
        bundle["entry"] = [e for e in bundle["entry"] if e["resource"]["resourceType"] != kind]
        return bundle

    def changed(kind, change):
        bundle = json.loads(json.dumps(exported))
        resource = next(e["resource"] for e in bundle["entry"] if e["resource"]["resourceType"] == kind)
        change(resource)
        return bundle

    cases = [
        (b"not json", "structure"),
        (json.dumps({"resourceType": "Patient", "id": "x"}).encode(), "invalid"),
        (json.dumps({"resourceType": "Bundle", "type": "collection", "entry": []}).encode(), "required"),
        (json.dumps(without("Patient")).encode(), "invalid"),
        (json.dumps({**exported, "entry": exported["entry"] + [{"resource": {"resourceType": "MedicationRequest", "id": "m"}}]}).encode(),
         "not-supported"),
        (json.dumps(changed("Observation", lambda r: r.update(id="not-a-uuid"))).encode(), "value"),
        (json.dumps(changed("Observation", lambda r: r.pop("extension"))).encode(), "required"),
        (json.dumps(changed("Observation", lambda r: r.update(effectiveDateTime="yesterday"))).encode(), "value"),
        (json.dumps(without("CarePlan")).encode(), "invalid"),
        # A check-in answer its question cannot have: the survey's rule refuses it, as it would any write.
        (json.dumps(changed("QuestionnaireResponse", lambda r: r["item"][0]["answer"][0].update(valueInteger=99))).encode(),
         "business-rule"),
    ]
    for body, code in cases:
        status, _, answer = post_bundle(maria["origin"], body)
        assert 400 <= status < 500, (code, status, answer)
        get_fhir_model_class("OperationOutcome").model_validate(answer)
        assert answer["issue"][0]["code"] == code, (code, answer)
    status, _, answer = post_bundle(maria["origin"], json.dumps(exported).encode(), content_type="text/plain")
    assert status == 415 and answer["resourceType"] == "OperationOutcome"
    # Nothing was imported by any of them.
    assert urlopen(maria["origin"] + "/").read().decode().count("ock-patient-name") == home_before
