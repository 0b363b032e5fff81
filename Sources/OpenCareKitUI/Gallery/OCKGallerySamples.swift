import Foundation

/// The sample components of the gallery, in one language.
struct OCKGallerySamples {
    let language: OCKLanguage
    let context: OCKRenderContext

    func t(_ english: String, _ korean: String) -> String { language == .english ? english : korean }

    var calendar: Calendar { context.localization.calendar }

    /// 08:00 on November 19, 2026 plus `hours`, in the reader's zone.
    func time(_ hour: Int, _ minute: Int = 0, day: Int = 19) -> Date {
        calendar.date(from: DateComponents(year: 2026, month: 11, day: day, hour: hour, minute: minute))!
    }

    func action(_ name: String) -> OCKFormAction {
        OCKFormAction(url: SafeURL("#\(name)")!, fields: ["event": name])
    }

    var sections: [(String, [any OCKComponent])] {
        [(t("Tasks", "할 일"), tasks), (t("Charts", "차트"), charts), (t("Contacts", "연락처"), contacts),
         (t("Calendar and more", "달력 및 기타"), more)]
    }

    var ibuprofen: String { t("Ibuprofen", "이부프로펜") }
    var longName: String {
        t("Acetaminophen and codeine phosphate oral solution, taken with a full glass of water after breakfast",
          "아세트아미노펜 코데인 인산염 경구 용액, 아침 식사 후 물 한 컵과 함께 복용")
    }

    var tasks: [any OCKComponent] {
        let dose = t("400 mg", "400mg")
        return [
            OCKSimpleTaskView(title: ibuprofen, detail: "\(context.localization.time(time(8))), \(dose)",
                              eventTime: .time(time(8)), isComplete: false, action: action("simple-1")),
            OCKSimpleTaskView(title: ibuprofen, detail: "\(context.localization.time(time(14))), \(dose)",
                              eventTime: .time(time(14)), isComplete: true, action: action("simple-2"),
                              completedImage: SafeURL("star.svg")),
            OCKSimpleTaskView(title: t("Vitamin D", "비타민 D"), detail: t("With breakfast", "아침 식사와 함께"),
                              isComplete: true, action: action("vitamin")),
            OCKSimpleTaskView(title: t("Tomorrow's walk", "내일 산책"), detail: t("Read-only: a future day", "읽기 전용: 다가올 날"),
                              isComplete: false, action: nil),
            OCKInstructionsTaskView(title: t("Knee Exercises", "무릎 운동"), detail: t("Every other day", "이틀마다"),
                                    instructions: t("Three sets of ten straight-leg raises, slowly, on each leg.",
                                                    "양쪽 다리 각각 다리 펴고 들어 올리기 10회씩 3세트, 천천히 하세요."),
                                    eventTime: .allDay, isComplete: false, action: action("knee")),
            OCKInstructionsTaskView(title: t("Stretch", "스트레칭"), detail: t("Anytime", "언제든지"),
                                    instructions: t("Five minutes of gentle stretching.", "5분 동안 가볍게 스트레칭하세요."),
                                    isComplete: true, action: action("stretch")),
            OCKChecklistTaskView(title: t("Doxylamine", "독실아민"), detail: t("3 times a day", "하루 3회"), items: [
                OCKEventItem(time: .time(time(8)), isComplete: false, action: action("doxy-1")),
                OCKEventItem(time: .time(time(14)), isComplete: false, action: action("doxy-2")),
                OCKEventItem(time: .time(time(20)), isComplete: false, action: action("doxy-3")),
            ], instructions: t("Take with food to ease nausea.", "메스꺼움을 줄이려면 음식과 함께 복용하세요.")),
            OCKChecklistTaskView(title: ibuprofen, detail: t("3 times a day", "하루 3회"), items: [
                OCKEventItem(time: .time(time(8)), isComplete: true, action: action("ibu-1")),
                OCKEventItem(time: .time(time(14)), isComplete: true, action: action("ibu-2")),
                OCKEventItem(time: .time(time(20)), isComplete: false, action: action("ibu-3")),
            ], instructions: t("Partly done: two of three doses.", "일부 완료: 3회 중 2회.")),
            OCKGridTaskView(title: t("Omeprazole", "오메프라졸"), detail: t("Twice a day", "하루 2회"), items: [
                OCKEventItem(time: .time(time(7, 30)), isComplete: true, action: action("ome-1")),
                OCKEventItem(time: .time(time(19, 30)), isComplete: true, action: action("ome-2")),
            ], cellContent: [0: HTML.text("20 mg"), 1: HTML.text("20 mg")],
            instructions: t("Done: both doses taken.", "완료: 두 번 모두 복용했습니다.")),
            OCKLogTaskView(title: t("Track Nausea", "메스꺼움 기록"), detail: t("Anytime", "언제든지"),
                           instructions: t("Log each time you feel nauseous.", "메스꺼울 때마다 기록하세요."),
                           logAction: action("nausea"), entries: []),
            OCKLogTaskView(title: t("Track Nausea", "메스꺼움 기록"), detail: t("Anytime", "언제든지"),
                           logAction: action("nausea-2"), entries: [
                               .init(time: .time(time(9, 12)), value: t("6 of 10", "10점 중 6점"), deleteAction: action("nausea-del-1")),
                               .init(time: .time(time(13, 40)), value: t("3 of 10", "10점 중 3점"), deleteAction: action("nausea-del-2")),
                           ]),
            OCKLabeledValueTaskView(title: t("Weekly Weigh-in", "주간 체중 측정"), detail: t("Mondays", "매주 월요일"),
                                    state: .complete(value: context.localization.number(72.5), label: "kg")),
            OCKLabeledValueTaskView(title: t("Weekly Weigh-in", "주간 체중 측정"), detail: t("Mondays", "매주 월요일"),
                                    state: .incomplete(label: context.string(.notRecorded))),
            OCKNumericProgressTaskView(title: t("Hydration", "수분 섭취"), detail: t("All day", "종일"), progress: 5,
                                       progressText: context.localization.number(5), goal: 8,
                                       goalText: t("8 glasses", "8잔"),
                                       instructions: t("Drink a glass of water every two hours.", "두 시간마다 물 한 잔을 마시세요.")),
            OCKNumericProgressTaskView(title: t("Hydration", "수분 섭취"), detail: t("Goal reached", "목표 달성"), progress: 8,
                                       progressText: context.localization.number(8), goal: 8, goalText: t("8 glasses", "8잔")),
            OCKSimpleTaskView(title: longName, detail: longName, eventTime: .time(time(8)), isComplete: false,
                              action: action("long-1")),
            OCKChecklistTaskView(title: longName, detail: longName, items: [
                OCKEventItem(time: .text(longName), isComplete: true, action: action("long-2")),
            ], instructions: longName),
        ]
    }

    /// "1 dose", "3 doses", "3회": the gallery's own plural, as an app would write its labels.
    func doseCount(_ count: Double) -> String {
        let number = Int(count)
        return t(number == 1 ? "1 dose" : "\(number) doses", "\(number)회")
    }

    func week() -> [Date] { (16...22).map { time(0, day: $0) } }

    var charts: [any OCKComponent] {
        let doses = t("doses", "회")
        let taken: [Double] = [3, 4, 2, 4, 3, 1, 4]
        let adherence = OCKCartesianChartView(
            title: t("Medication adherence", "복약 순응도"), detail: t("This week", "이번 주"),
            summary: t("You took most of your doses this week; Saturday was the hardest day.",
                       "이번 주에는 대부분 복용했고, 토요일이 가장 어려웠습니다."),
            domain: .dates(week(), .day),
            series: [OCKDataSeries(title: t("Doses taken", "복용 횟수"), points: taken.map {
                OCKDataPoint($0, label: t("\(Int($0)) of 4 doses", "4회 중 \(Int($0))회"))
            }, mark: .bar, unit: doses)],
            yRange: .fixed(0...4), identifier: "chart-adherence")
        let pain: [Double?] = [6, 5, 5, 4, nil, 3, 3]
        let hig = OCKCartesianChartView(
            title: t("Doses and symptom level", "복용량과 증상 정도"), detail: t("This week", "이번 주"),
            summary: t("Pain eased from 6 to 3 while doses stayed mostly steady.", "복용을 꾸준히 하는 동안 통증이 6에서 3으로 줄었습니다."),
            domain: .dates(week(), .day),
            series: [
                OCKDataSeries(title: t("Doses", "복용량"), points: taken.map { OCKDataPoint($0, label: doseCount($0)) },
                              mark: .bar, unit: doses),
                OCKDataSeries(title: t("Pain (0–10)", "통증 (0–10)"), values: pain, mark: .lineWithPoints, axis: .trailing),
            ], trailingYRange: .fixed(0...10), identifier: "chart-hig")
        let stacked = OCKCartesianChartView(
            title: t("Doses by time of day", "시간대별 복용"), detail: t("Stacked bars", "누적 막대"),
            summary: t("Afternoon doses were the ones most often missed.", "오후 복용을 가장 자주 놓쳤습니다."),
            domain: .dates(week(), .day),
            series: [
                OCKDataSeries(title: t("Morning", "아침"), points: [1, 1, 1, 1, 1, 0, 1].map { OCKDataPoint($0, label: doseCount($0)) },
                              mark: .bar, unit: doses),
                OCKDataSeries(title: t("Afternoon", "오후"), points: [1, 2, 0, 2, 1, 1, 2].map { OCKDataPoint($0, label: doseCount($0)) },
                              mark: .bar, unit: doses),
                OCKDataSeries(title: t("Evening", "저녁"), points: [1, 1, 1, 1, 1, 0, 1].map { OCKDataPoint($0, label: doseCount($0)) },
                              mark: .bar, unit: doses),
            ], isStacked: true, identifier: "chart-stacked")
        let weights: [Double?] = [72.9, 72.6, nil, 72.4, 72.5, 72.1, 72.0]
        let scatter = OCKCartesianChartView(
            title: t("Weight", "체중"), detail: t("Data-fitted range", "데이터에 맞춘 범위"),
            domain: .dates(week(), .day),
            series: [OCKDataSeries(title: t("Weight", "체중"), values: weights, mark: .point, unit: "kg")],
            identifier: "chart-scatter")
        let empty = OCKCartesianChartView(
            title: t("Nausea", "메스꺼움"), detail: t("No entries yet", "아직 기록 없음"), domain: .dates(week(), .day),
            series: [OCKDataSeries(title: t("Nausea", "메스꺼움"), values: Array(repeating: nil, count: 7), mark: .bar)],
            identifier: "chart-empty")
        let start = time(0, day: 1)
        let year = (0..<365).map { calendar.date(byAdding: .day, value: $0 - 364, to: start)! }
        let steps = year.indices.map { index -> Double? in
            index % 17 == 5 ? nil : 5000 + 2500 * sin(Double(index) / 58) + Double((index * 37) % 1400)
        }
        let yearChart = OCKCartesianChartView(
            title: t("Daily steps", "일일 걸음 수"), detail: t("The past year, by month", "지난 1년, 월별"),
            domain: .dates(year, .day),
            series: [OCKDataSeries(title: t("Steps", "걸음 수"), values: steps, mark: .line, unit: t("steps", "걸음"),
                                   aggregation: .average)],
            identifier: "chart-year")
        let quarter = Array(year.suffix(120))
        let quarterChart = OCKCartesianChartView(
            title: t("Pain level", "통증 정도"), detail: t("Four months, by week", "4개월, 주별"),
            domain: .dates(quarter, .day),
            series: [OCKDataSeries(title: t("Pain (0–10)", "통증 (0–10)"), values: quarter.indices.map { 7 - Double($0) / 30 },
                                   mark: .lineWithPoints)],
            yRange: .fixed(0...10), identifier: "chart-quarter")
        return [adherence, hig, stacked, scatter, empty, yearChart, quarterChart]
    }

    var contacts: [any OCKComponent] {
        [
            OCKSimpleContactView(name: t("Dr. Maria Ruiz", "김민지 박사"), title: t("Family Practice Doctor", "가정의학과 전문의"),
                                 category: .careTeam, detailURL: SafeURL("#contact-ruiz")),
            OCKSimpleContactView(name: t("Lexi Torres", "이서연"), title: t("Daughter", "딸"), image: SafeURL("portrait.svg"),
                                 category: .friendsAndFamily, detailURL: SafeURL("#contact-torres")),
            OCKDetailedContactView(name: t("Dr. Maria Ruiz", "김민지 박사"), title: t("Family Practice Doctor", "가정의학과 전문의"),
                                   category: .careTeam,
                                   instructions: t("Call for refills or if your pain gets worse.", "처방 갱신이 필요하거나 통증이 심해지면 전화하세요."),
                                   phoneNumber: "(503) 555-0142", messagingNumber: "(503) 555-0142",
                                   emailAddress: "m.ruiz@example.org",
                                   address: t("2101 NW Lovejoy St\nPortland, OR 97210", "서울특별시 종로구 대학로 101\n03080"),
                                   identifier: "contact-ruiz"),
            OCKDetailedContactView(name: longName, title: longName, category: .friendsAndFamily,
                                   phoneNumber: "+82 2 555 0100", identifier: "contact-long"),
        ]
    }

    var more: [any OCKComponent] {
        let completions: [Double?] = [1, 0.75, 1, 0.5, nil, 0, 0]
        let days = zip(week(), completions).enumerated().map { index, pair in
            OCKWeekCalendarView.Day(date: pair.0, completion: pair.1, url: SafeURL("#day-\(index)"))
        }
        let ringCard = { (fraction: Double?, title: String) -> any OCKComponent in
            OCKCardView(header: OCKHeaderView(title: title), contentStack: [OCKCompletionRingView(fraction: fraction)])
        }
        return [
            OCKCardView(header: OCKHeaderView(title: t("This week", "이번 주")), contentStack: [
                OCKWeekCalendarView(days: days, selectedDate: time(9, day: 18), now: time(10, day: 19)),
            ]),
            ringCard(0, t("Not started", "시작 전")),
            ringCard(0.6, t("Partly done", "일부 완료")),
            ringCard(1, t("All done", "모두 완료")),
            OCKLinkView(title: t("Learn more", "더 알아보기"), links: [
                .website("https://www.example.org/knee-recovery", title: t("Knee recovery guide", "무릎 회복 안내")),
                .call(phoneNumber: "(503) 555-0142", title: t("Clinic", "병원")),
                .message(phoneNumber: "(503) 555-0142", title: t("Care team", "의료진")),
                .email(address: "care@example.org", title: t("Nurse line", "간호사 상담")),
                .location("2101 NW Lovejoy St, Portland, OR", title: t("Clinic location", "병원 위치")),
            ]),
            OCKFeaturedContentView(label: t("Easing nausea after surgery", "수술 후 메스꺼움 줄이기"),
                                   image: SafeURL("featured.svg"), url: SafeURL("#featured")),
        ]
    }
}
