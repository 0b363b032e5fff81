/// The stylesheet of OpenCareKitUI's components: the styler's custom properties followed by rules that use only
/// them. Text sizes are in rem so the browser's text size scales them; targets are at least 44 CSS px; rows stack
/// at large text sizes; `prefers-reduced-motion` stops transitions.
public enum OCKStylesheet {
    /// The whole stylesheet for `styler`.
    public static func css(_ styler: OCKStyler = OCKStyler()) -> String {
        styler.customProperties + rules
    }

    static let rules = #"""
*, *::before, *::after { box-sizing: border-box; }
html { font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", system-ui, "Noto Sans", "Noto Sans CJK KR", "Apple SD Gothic Neo", sans-serif;
  background: var(--ock-color-background); color: var(--ock-color-label); -webkit-text-size-adjust: 100%; }
body { margin: 0; font-size: 1rem; line-height: 1.35; }
a { color: var(--ock-color-tint); }
img { max-width: 100%; }
:focus-visible { outline: 3px solid var(--ock-color-focus); outline-offset: 2px; }
.ock-visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; border: 0; }

/* Cards */
.ock-card { background: var(--ock-color-card); border-radius: var(--ock-radius); box-shadow: var(--ock-shadow);
  border: var(--ock-border-width) solid var(--ock-color-separator); padding: var(--ock-padding);
  max-width: var(--ock-max-card-width); overflow-wrap: anywhere; }
.ock-header { display: flex; align-items: center; gap: var(--ock-spacing); }
.ock-header-separated { padding-bottom: var(--ock-spacing); border-bottom: 1px solid var(--ock-color-separator); }
.ock-header-text { flex: 1; min-width: 0; }
.ock-header-title { font-size: 1.0625rem; font-weight: 600; margin: 0; }
.ock-header-detail { font-size: 0.9375rem; color: var(--ock-color-secondary-label); margin: 0.125rem 0 0; }
.ock-icon::before { content: "●"; color: var(--ock-color-tint); }
.ock-disclosure { font-size: 1.5rem; color: var(--ock-color-secondary-label); line-height: 1; }
.ock-content-stack { display: flex; flex-direction: column; gap: var(--ock-spacing); margin-top: var(--ock-spacing); }
.ock-instructions { margin: 0; font-size: 0.9375rem; color: var(--ock-color-secondary-label); white-space: pre-line; }
form { margin: 0; }

/* Buttons */
button { font: inherit; }
.ock-completion-button, .ock-log-button { display: flex; align-items: center; justify-content: center; gap: 0.5rem;
  width: 100%; min-height: var(--ock-button-height); min-width: 44px; padding: 0.5rem 1rem; border: 0;
  border-radius: calc(var(--ock-radius) * 0.75); background: var(--ock-color-tint-fill); color: var(--ock-color-tint);
  font-size: 1rem; font-weight: 600; cursor: pointer;
  transition: background-color var(--ock-duration) ease, color var(--ock-duration) ease; }
.ock-completion-button[aria-pressed="true"] { background: var(--ock-color-tint); color: var(--ock-color-on-tint); }
.ock-completion-button:disabled, .ock-log-button:disabled { cursor: default; opacity: 0.75; }
span.ock-checkmark:empty { display: none; }
.ock-simple-row { display: flex; align-items: center; gap: var(--ock-spacing); }
.ock-simple-row .ock-header { flex: 1; min-width: 0; }
.ock-completion-button.ock-circle { flex: none; width: max(44px, 2.75rem); height: max(44px, 2.75rem); min-height: 0;
  padding: 0; border-radius: 50%; background: transparent; border: 2px solid var(--ock-color-tint); font-size: 1.375rem; }
.ock-completion-button.ock-circle[aria-pressed="true"] { background: var(--ock-color-tint); color: var(--ock-color-on-tint); }
.ock-completion-button.ock-circle .ock-completed-image { width: 70%; height: 70%; }
.ock-completed-image { width: 1.25rem; height: 1.25rem; }
.ock-completion-button.ock-row { justify-content: space-between; text-align: start; background: transparent; color: var(--ock-color-label);
  font-weight: 400; padding: 0.5rem 0; border-radius: 0; }
.ock-completion-button.ock-row .ock-button-title { order: -1; }
.ock-completion-button.ock-row .ock-checkmark, .ock-completion-button.ock-row .ock-checkmark:empty {
  display: inline-flex; align-items: center; justify-content: center; width: 1.75rem; height: 1.75rem;
  border-radius: 50%; border: 2px solid var(--ock-color-tint); color: var(--ock-color-on-tint); }
.ock-completion-button.ock-row[aria-pressed="true"] { background: transparent; color: var(--ock-color-label); }
.ock-completion-button.ock-row[aria-pressed="true"] .ock-checkmark { background: var(--ock-color-tint); }
.ock-checklist, .ock-grid, .ock-log-entries, .ock-links, .ock-contact-actions, .ock-chart-legend, .ock-week-calendar ol {
  list-style: none; margin: 0; padding: 0; }
.ock-checklist-item + .ock-checklist-item { border-top: 1px solid var(--ock-color-separator); }
.ock-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(4.5rem, 1fr)); gap: 0.5rem; }
.ock-grid-cell { display: flex; flex-direction: column; align-items: center; gap: 0.25rem; }
.ock-completion-button.ock-cell { flex-direction: column; gap: 0.125rem; font-size: 0.875rem; padding: 0.5rem 0.25rem; }
.ock-grid-cell-content { font-size: 0.8125rem; color: var(--ock-color-secondary-label); text-align: center; }

/* Log */
.ock-log-entries { display: flex; flex-direction: column; }
.ock-log-entry { display: flex; align-items: center; gap: var(--ock-spacing); border-top: 1px solid var(--ock-color-separator); }
.ock-log-time { font-weight: 600; font-variant-numeric: tabular-nums; }
.ock-log-value { flex: 1; color: var(--ock-color-secondary-label); }
.ock-log-delete-form { margin-left: auto; }
.ock-log-delete { min-width: 44px; min-height: 44px; border: 0; background: transparent; color: var(--ock-color-secondary-label);
  font-size: 1.5rem; cursor: pointer; border-radius: 50%; }

/* Values */
.ock-labeled-value { margin: 0; }
.ock-labeled-value .ock-value { font-size: 2rem; font-weight: 700; }
.ock-labeled-value .ock-value-label { font-size: 1rem; color: var(--ock-color-secondary-label); font-weight: 600; }
.ock-labeled-value.ock-complete .ock-value { color: var(--ock-color-tint); }
.ock-progress-figures { margin: 0 0 0.25rem; }
.ock-progress-figures .ock-value { font-size: 2rem; font-weight: 700; color: var(--ock-color-tint); }
.ock-progress-figures .ock-goal { color: var(--ock-color-secondary-label); font-weight: 600; }
.ock-numeric-progress meter { width: 100%; height: 0.75rem; }
.ock-value-entry { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 0.5rem; }
.ock-value-entry-label { display: flex; flex-direction: column; gap: 0.25rem; flex: 1 1 8rem; font-size: 0.9375rem;
  color: var(--ock-color-secondary-label); }
.ock-value-input { min-height: 44px; font: inherit; font-size: 1rem; padding: 0.5rem 0.75rem; color: var(--ock-color-label);
  background: var(--ock-color-background); border: 1px solid var(--ock-color-separator); border-radius: calc(var(--ock-radius) * 0.5); }
.ock-value-save { width: auto; flex: 0 0 auto; }

/* Charts */
.ock-chart-summary { margin: 0; font-size: 0.9375rem; color: var(--ock-color-secondary-label); }
.ock-chart-plot { width: 100%; height: auto; display: block; overflow: visible; }
.ock-grid-line { stroke: var(--ock-color-separator); stroke-width: 0.5; }
.ock-axis-line { stroke: var(--ock-color-secondary-label); stroke-width: 1; }
.ock-tick, .ock-axis-unit { font-size: 0.6875rem; fill: var(--ock-color-secondary-label); }
.ock-axis-unit { font-weight: 600; }
.ock-series-line { stroke-width: 2.5; fill: none; stroke-linejoin: round; stroke-linecap: round; }
.ock-dash-1 { stroke-dasharray: 6 4; }
.ock-dash-2 { stroke-dasharray: 2 4; }
.ock-dash-3 { stroke-dasharray: 8 3 2 3; }
.ock-pattern-line { stroke: var(--ock-color-card); stroke-width: 2.5; }
.ock-stack-separator { stroke: var(--ock-color-card); stroke-width: 1.5; }
.ock-point { stroke: var(--ock-color-card); stroke-width: 1; }
.ock-chart-focus { fill: transparent; stroke: none; }
.ock-chart-column { outline: none; cursor: pointer; }
svg[data-ock-chart] { touch-action: pan-y; }
.ock-chart-column:focus .ock-chart-focus { fill: var(--ock-color-tint-fill); stroke: var(--ock-color-focus); stroke-width: 2; }
.ock-chart-readout { margin: 0; min-height: 1.35em; font-size: 0.9375rem; font-weight: 600; }
.ock-chart-legend { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; font-size: 0.875rem; }
.ock-legend-item { display: flex; align-items: center; gap: 0.375rem; }
.ock-legend-swatch { width: 1.5rem; height: 1.25rem; overflow: visible; }
.ock-audio-graph-button { display: inline-flex; align-items: center; gap: 0.5rem; min-height: 44px; min-width: 44px;
  align-self: flex-start; padding: 0.5rem 1rem; border: 1px solid var(--ock-color-tint); border-radius: 999px;
  background: transparent; color: var(--ock-color-tint); cursor: pointer; }
.ock-audio-graph-button[hidden] { display: none; }
.ock-audio-graph-button[aria-pressed="true"] { background: var(--ock-color-tint); color: var(--ock-color-on-tint); }
"""# + seriesRules + rulesContinued

    /// Fill and stroke classes for the six series colors.
    static let seriesRules = (0..<6).map {
        ".ock-series-fill-\($0) { fill: var(--ock-color-series-\($0)); }\n.ock-series-stroke-\($0) { stroke: var(--ock-color-series-\($0)); }\n"
    }.joined()

    static let rulesContinued = #"""

/* Contacts */
.ock-contact-header { display: flex; align-items: center; gap: var(--ock-spacing); color: inherit; text-decoration: none;
  min-height: 44px; }
a.ock-contact-header { margin: calc(var(--ock-padding) * -1); padding: var(--ock-padding); border-radius: var(--ock-radius); }
.ock-contact-photo, .ock-monogram { width: 3rem; height: 3rem; border-radius: 50%; flex: none; object-fit: cover; }
.ock-monogram { display: inline-flex; align-items: center; justify-content: center; font-weight: 600;
  background: var(--ock-color-secondary-label); color: var(--ock-color-card); }
.ock-care-team .ock-monogram { background: var(--ock-color-care-team); }
.ock-friends-family .ock-monogram { background: var(--ock-color-friends-family); }
.ock-contact-text { flex: 1; min-width: 0; }
.ock-contact-name { font-size: 1.0625rem; font-weight: 600; margin: 0; }
.ock-contact-title { margin: 0.125rem 0 0; font-size: 0.9375rem; color: var(--ock-color-secondary-label); }
.ock-category-badge { display: inline-flex; align-items: center; gap: 0.25rem; margin: 0.25rem 0 0; font-size: 0.8125rem;
  font-weight: 600; padding: 0.0625rem 0.5rem; border-radius: 999px; border: 1px solid currentColor; }
.ock-care-team .ock-category-badge { color: var(--ock-color-care-team); }
.ock-friends-family .ock-category-badge { color: var(--ock-color-friends-family); }
.ock-detailed-contact .ock-instructions { margin-top: var(--ock-spacing); }
.ock-contact-actions { display: flex; gap: 0.5rem; margin-top: var(--ock-spacing); }
.ock-contact-actions li { flex: 1; }
.ock-contact-action { display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 0.125rem;
  min-height: 44px; min-width: 44px; padding: 0.5rem; border-radius: calc(var(--ock-radius) * 0.75);
  background: var(--ock-color-tint-fill); color: var(--ock-color-tint); text-decoration: none; font-size: 0.875rem; font-weight: 600; }
.ock-glyph { width: 1.25em; height: 1.25em; flex: none; fill: none; stroke: currentColor; stroke-width: 2;
  stroke-linecap: round; stroke-linejoin: round; }
.ock-category-badge .ock-glyph { width: 1em; height: 1em; stroke-width: 2.5; }
.ock-contact-address { margin-top: var(--ock-spacing); padding-top: var(--ock-spacing); border-top: 1px solid var(--ock-color-separator); }
.ock-address-label { margin: 0; font-size: 0.8125rem; font-weight: 600; color: var(--ock-color-secondary-label); }
.ock-address { margin: 0.25rem 0 0.5rem; }
.ock-map-link { flex-direction: row; }

/* Calendar and rings */
.ock-week-calendar ol { display: grid; grid-template-columns: repeat(7, minmax(0, 1fr)); gap: 0.25rem; }
.ock-day { display: flex; flex-direction: column; align-items: center; gap: 0.25rem; min-height: 44px; min-width: 44px;
  padding: 0.375rem 0; border-radius: var(--ock-radius); color: var(--ock-color-label); text-decoration: none; }
.ock-day-weekday { font-size: 0.75rem; font-weight: 600; color: var(--ock-color-secondary-label); }
.ock-day-number { font-size: 0.875rem; font-variant-numeric: tabular-nums; }
.ock-day.ock-today .ock-day-number { color: var(--ock-color-tint); font-weight: 700; }
.ock-day.ock-selected { background: var(--ock-color-tint-fill); }
.ock-day.ock-future .ock-ring { opacity: 0.4; }
.ock-day.ock-future .ock-day-number { color: var(--ock-color-secondary-label); }
.ock-ring { width: var(--ock-ring-size); height: var(--ock-ring-size); }
.ock-ring-track { stroke: var(--ock-color-separator); stroke-width: 4; }
.ock-ring-progress { stroke: var(--ock-color-tint); stroke-width: 4; stroke-linecap: round;
  transition: stroke-dasharray var(--ock-duration) ease; }
.ock-ring-check { stroke: var(--ock-color-tint); stroke-width: 3; stroke-linecap: round; stroke-linejoin: round; }
.ock-ring.ock-empty .ock-ring-track { stroke-dasharray: 2 3; }

/* Links and featured content */
.ock-links li + li { border-top: 1px solid var(--ock-color-separator); }
.ock-link-row { display: flex; align-items: center; gap: var(--ock-spacing); min-height: 44px; padding: 0.5rem 0;
  color: var(--ock-color-tint); text-decoration: none; }
.ock-link-title { flex: 1; font-weight: 600; }
.ock-link-kind { font-size: 0.8125rem; color: var(--ock-color-secondary-label); }
.ock-link-unavailable { color: var(--ock-color-secondary-label); }
.ock-featured { padding: 0; overflow: hidden; }
.ock-featured-link { position: relative; display: block; min-height: 10rem; color: #ffffff; text-decoration: none;
  background: #1f2f46; }
.ock-featured-image { display: block; width: 100%; height: 12rem; object-fit: cover; }
.ock-featured-label { position: absolute; left: 0; right: 0; bottom: 0; padding: 2rem var(--ock-padding) var(--ock-padding);
  font-size: 1.375rem; font-weight: 700; background: linear-gradient(transparent, rgba(0, 0, 0, 0.75)); color: #ffffff; }

/* Page layout */
.ock-page-main { padding: 1rem; max-width: 84rem; margin: 0 auto; }
.ock-page-main h1 { font-size: 1.75rem; margin: 0.5rem 0 1rem; }
.ock-page-heading { font-size: 1.375rem; margin: 1.5rem 0 0.75rem; }
.ock-page-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 22rem), 1fr)); gap: 1rem;
  align-items: start; }
.ock-page-nav ul { display: flex; flex-wrap: wrap; gap: 0.5rem; list-style: none; margin: 0; padding: 0.75rem 1rem 0; }
.ock-page-nav-link { display: inline-flex; align-items: center; min-height: 44px; min-width: 44px; padding: 0.5rem 0.875rem;
  border-radius: 999px; background: var(--ock-color-card); text-decoration: none; font-weight: 600; }
.ock-page-nav-link[aria-current="page"] { background: var(--ock-color-tint); color: var(--ock-color-on-tint); }
.ock-page-index { padding-top: 0; padding-bottom: 0; }
.ock-skip-link { position: absolute; left: 0.5rem; top: -4rem; z-index: 10; display: inline-flex; align-items: center;
  min-height: 44px; padding: 0.5rem 1rem; background: var(--ock-color-tint); color: var(--ock-color-on-tint); border-radius: 999px; }
.ock-skip-link:focus { top: 0.5rem; }
.ock-tab-bar { position: sticky; top: 0; z-index: 5; background: var(--ock-color-card); border-bottom: 1px solid var(--ock-color-separator); }
.ock-tab-bar ul { display: flex; justify-content: center; gap: 0.25rem; list-style: none; margin: 0 auto; padding: 0.25rem; max-width: 40rem; }
.ock-tab-bar li { flex: 1; }
.ock-tab { display: flex; align-items: center; justify-content: center; min-height: 44px; min-width: 44px; border-radius: var(--ock-radius);
  color: var(--ock-color-secondary-label); font-weight: 600; text-decoration: none; }
.ock-tab[aria-current="page"] { color: var(--ock-color-tint); background: var(--ock-color-tint-fill); }
.ock-day-nav ul { display: flex; align-items: center; gap: 0.25rem; list-style: none; margin: 0; padding: 0; }
.ock-day-nav-today { flex: 1; text-align: center; }
.ock-day-nav a { display: inline-flex; align-items: center; justify-content: center; min-height: 44px; min-width: 44px;
  padding: 0.25rem 0.75rem; border-radius: 999px; font-weight: 600; text-decoration: none; }
.ock-day-step { font-size: 1.5rem; line-height: 1; background: var(--ock-color-card); }
.ock-day-nav a[aria-current="date"], .ock-day-nav a[aria-current="page"] { background: var(--ock-color-tint); color: var(--ock-color-on-tint); }
.ock-day-heading { font-size: 1.375rem; margin: 1rem 0 0.25rem; }
.ock-notice { margin: 0 0 0.75rem; color: var(--ock-color-secondary-label); }
.ock-form-error { margin: 0.5rem 0 0; color: var(--ock-color-friends-family); font-weight: 600; }
.ock-care-header { display: flex; flex-direction: column; gap: 0.5rem; margin-bottom: 0.75rem; }

/* Large text: rows stack vertically. */
@media (max-width: 22em) {
  .ock-header, .ock-contact-header, .ock-log-entry { flex-wrap: wrap; }
  .ock-contact-actions { flex-direction: column; }
  .ock-grid { grid-template-columns: 1fr; }
  .ock-week-calendar ol { grid-template-columns: repeat(4, minmax(0, 1fr)); }
}

@media (prefers-reduced-motion: reduce) {
  *, *::before, *::after { transition: none !important; animation: none !important; scroll-behavior: auto !important; }
}
"""#
}
