/// The styles of the host's own pages (sign-in, home, account, sharing, activity) and of the idle warning, on
/// OpenCareKitUI's custom properties so a styler's colours and dark mode apply.
enum HostStyles {
    static let css = """

    .ock-editor-form { display: grid; gap: var(--ock-spacing); max-width: 40rem; }
    .ock-fieldset { display: grid; gap: 0.75rem; border: 1px solid var(--ock-color-separator); border-radius: 12px; padding: 1rem; margin: 0; }
    .ock-fieldset legend { font-weight: 600; padding: 0 0.25rem; }
    .ock-field textarea { font: inherit; padding: 0.5rem; border: 1px solid var(--ock-color-separator); border-radius: 8px;
      background: var(--ock-color-card); color: inherit; }
    .ock-field-row { display: flex; flex-wrap: wrap; gap: 0.75rem; }
    .ock-field-row .ock-field { flex: 1 1 9rem; }
    .ock-field-hint { color: var(--ock-color-secondary-label); }
    :root { --ock-editor-error: #c5221f; }
    :root[data-appearance="dark"] { --ock-editor-error: #ff8a80; }
    @media (prefers-color-scheme: dark) { :root:not([data-appearance="light"]) { --ock-editor-error: #ff8a80; } }
    .ock-field-error { color: var(--ock-editor-error); font-weight: 600; margin: 0; }
    [aria-invalid="true"] { border-color: var(--ock-editor-error) !important; border-width: 2px !important; }
    .ock-script-only[hidden] { display: none; }
    .ock-code-field { font-family: ui-monospace, "DejaVu Sans Mono", monospace; min-height: 10rem; }
    .ock-template-problems { padding-inline-start: 1.25rem; }
    .ock-note-list { list-style: none; padding: 0; margin: 0; }
    .ock-note { padding: 0.5rem 0; border-bottom: 1px solid var(--ock-color-separator); }
    .ock-note h3 { font-size: 1rem; margin: 0; }
    .ock-note-content { white-space: pre-line; margin: 0.25rem 0; }
    .ock-note-author { color: var(--ock-color-secondary-label); margin: 0; }
    .ock-editor-choice { display: flex; gap: 0.5rem; align-items: center; margin: 0; min-height: 44px; }
    /* Each checkbox and radio button is a 44-pixel target of its own, however long its label. */
    .ock-editor-choice input { width: 44px; height: 44px; margin: 0; flex: none; accent-color: var(--ock-color-tint); }
    a.ock-button { display: inline-flex; align-items: center; text-decoration: none; }
    .ock-form-actions { display: flex; flex-wrap: wrap; gap: 0.75rem; }
    .ock-plan-list, .ock-history { padding: 0; margin: 0; list-style: none; }
    .ock-plan-item, .ock-history-item { padding: 0.5rem 0; border-bottom: 1px solid var(--ock-color-separator); }
    .ock-plan-rule, .ock-history-who { color: var(--ock-color-secondary-label); display: block; }
    .ock-history-item p { margin: 0.25rem 0; }
    .ock-preview-days { padding-inline-start: 1.25rem; }
    .ock-preview-day { font-weight: 600; display: block; }
    .ock-account-form { display: grid; gap: var(--ock-spacing); max-width: 28rem; }
    .ock-field { display: grid; gap: 0.25rem; margin: 0; }
    .ock-field input, .ock-field select, .ock-inline-form select, .ock-copy-field { min-height: 44px; font: inherit; padding: 0 0.5rem;
      border: 1px solid var(--ock-color-separator); border-radius: 8px; background: var(--ock-color-card); color: inherit; }
    .ock-copy-field { width: 100%; box-sizing: border-box; }
    .ock-button { min-height: 44px; min-width: 44px; padding: 0 1rem; font: inherit; border-radius: 8px; border: 0;
      background: var(--ock-color-tint); color: var(--ock-color-on-tint); cursor: pointer; }
    .ock-member-list, .ock-record-list, .ock-demo-people, .ock-record-links ul { list-style: none; padding: 0; margin: 0; }
    .ock-member { display: flex; flex-wrap: wrap; gap: var(--ock-spacing); align-items: center; padding: 0.5rem 0;
      border-bottom: 1px solid var(--ock-color-separator); }
    .ock-member-name { font-weight: 600; flex: 1 1 10rem; }
    .ock-inline-form { display: flex; gap: 0.5rem; align-items: center; margin: 0; }
    .ock-record-list .ock-link-row { justify-content: space-between; }
    .ock-record-role { color: var(--ock-color-secondary-label); }
    .ock-demo-people li { margin: 0.5rem 0; }
    .ock-record-links { max-width: 60rem; margin: 1rem auto 5rem; padding: 0 1rem; }
    .ock-record-links ul { display: flex; flex-wrap: wrap; gap: 0 1.5rem; }
    .ock-table-scroll { overflow-x: auto; }
    .ock-activity { border-collapse: collapse; width: 100%; }
    .ock-activity th, .ock-activity td { text-align: start; padding: 0.5rem; border-bottom: 1px solid var(--ock-color-separator); }
    .ock-activity .ock-denied td:last-child { font-weight: 700; }
    .ock-idle-warning { position: fixed; inset: auto 1rem 1rem 1rem; z-index: 20; padding: 1rem; border-radius: 12px;
      background: var(--ock-color-card); color: var(--ock-color-label); box-shadow: 0 4px 24px rgba(0, 0, 0, 0.3);
      display: flex; flex-wrap: wrap; gap: var(--ock-spacing); align-items: center; }
    .ock-idle-warning p { margin: 0; flex: 1 1 14rem; }
    .ock-reminder-notices { position: fixed; inset: 1rem 1rem auto 1rem; z-index: 19; display: grid; gap: .5rem; }
    .ock-reminder-notice { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; padding: .75rem 1rem; border-radius: 12px;
      background: var(--ock-color-card); color: var(--ock-color-label); box-shadow: 0 4px 24px rgba(0, 0, 0, 0.3); }
    .ock-reminder-notice p { margin: 0; flex: 1 1 14rem; }
    .ock-reminder-tasks { list-style: none; padding: 0; margin: 0; }
    .ock-report-controls form { display: flex; flex-wrap: wrap; gap: 0 var(--ock-spacing); align-items: end; }
    .ock-report-actions { display: flex; flex-wrap: wrap; gap: 0.5rem; }
    .ock-report-actions .ock-button { display: inline-flex; align-items: center; min-height: 44px; text-decoration: none; }
    .ock-report-table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
    .ock-report-table th, .ock-report-table td { text-align: start; padding: 0.35rem 0.5rem; vertical-align: top;
      border-bottom: 1px solid var(--ock-color-separator); }
    .ock-report-table thead th { font-weight: 600; }
    .ock-report-table tbody th { white-space: nowrap; }
    .ock-report-charts { display: grid; gap: var(--ock-spacing); grid-template-columns: repeat(auto-fill, minmax(20rem, 1fr)); }
    .ock-report-hash { overflow-wrap: anywhere; font-size: 0.85rem; }
    .ock-report-document { font-family: system-ui, sans-serif; margin: 0; color: #000; background: #fff; }
    @page { margin: 14mm; }
    @page a4 { size: A4; margin: 14mm; }
    @page letter { size: letter; margin: 0.55in; }
    .ock-report[data-paper="a4"] { page: a4; }
    .ock-report[data-paper="letter"] { page: letter; }
    @media print {
      .ock-no-print, .ock-tab-bar, .ock-record-links, .ock-skip-link, .ock-idle-warning, .ock-reminder-notices { display: none !important; }
      html, body { background: #fff; color: #000; }
      .ock-page-main { max-width: none; padding: 0; }
      .ock-report-section { break-inside: auto; }
      .ock-report-section h2 { break-after: avoid; }
      .ock-report-table tr, .ock-card, .ock-report-consent { break-inside: avoid; }
      .ock-report-table thead { display: table-header-group; }
      .ock-table-scroll { overflow: visible; }
      .ock-report-charts { grid-template-columns: 1fr 1fr; }
    }
    .ock-patients { list-style: none; padding: 0; margin: 0; }
    .ock-patient { display: grid; grid-template-columns: 1fr auto; gap: 0.25rem var(--ock-spacing); align-items: center;
      padding: 0.75rem 0; border-bottom: 1px solid var(--ock-color-separator); }
    .ock-patient-name { font-weight: 600; color: var(--ock-color-tint); min-height: 44px; display: flex; align-items: center; }
    .ock-patient-week { display: flex; gap: 0.25rem; grid-row: span 2; }
    .ock-patient-day { display: grid; justify-items: center; font-size: 0.75rem; color: var(--ock-color-secondary-label); }
    .ock-patient-day .ock-ring { width: 1.5rem; height: 1.5rem; }
    .ock-patient-activity { margin: 0; color: var(--ock-color-secondary-label); }
    .ock-flags { grid-column: 1 / -1; list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 0.5rem; }
    .ock-flag { padding: 0.125rem 0.5rem; border-radius: 6px; border: 1px solid var(--ock-color-friends-family);
      color: var(--ock-color-friends-family); font-weight: 600; }
    @media (max-width: 30rem) { .ock-patient { grid-template-columns: 1fr; } .ock-patient-week { grid-row: auto; } }
    """
}
