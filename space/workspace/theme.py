"""The look: one stylesheet for the ``nt-*`` classes the HTML views use (light and dark)."""

from __future__ import annotations

import gradio as gr

# Soft's emerald puts labels in emerald-500 on emerald-100 (2.2:1), white on emerald-500 (2.5:1) and subdued text in
# slate-400 on white (2.6:1); the darker shades below reach WCAG AA's 4.5:1 for text (emerald-800 on emerald-100 is
# 7.3:1, white on emerald-700 5.5:1, slate-600 on white 7.6:1).
THEME = gr.themes.Soft(primary_hue="emerald", secondary_hue="blue", neutral_hue="slate").set(
    body_text_color_subdued="*neutral_600",
    body_text_color_subdued_dark="*neutral_400",
    block_label_text_color="*primary_800",
    block_title_text_color="*primary_800",
    block_label_background_fill_dark="*primary_800",
    checkbox_label_background_fill_selected="*primary_700",
    checkbox_label_background_fill_selected_dark="*primary_800",
    checkbox_background_color_selected="*primary_700",
    checkbox_border_color_selected="*primary_700",
    button_primary_background_fill="*primary_700",
    button_primary_background_fill_hover="*primary_800",
    button_primary_background_fill_dark="*primary_700",
    button_primary_background_fill_hover_dark="*primary_800",
)

CSS = """
/* An answer scrolled into view after a click keeps a little room above it (and its top edge in sight). */
#validation-report, #submit-receipt, #split-quota { scroll-margin-top: 12px; }
.nt-help p { margin: 0.2em 0; }
.nt-table-wrap { overflow-x: auto; max-width: 100%; }
.nt-csv-link { display: inline-block; padding: 4px 14px; border: 1px solid var(--border-color-primary);
  border-radius: var(--radius-md); font-size: 0.85rem; text-decoration: none; color: var(--body-text-color);
  background: var(--button-secondary-background-fill); }
.nt-csv-link:hover { background: var(--button-secondary-background-fill-hover); }
.nt-table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
.nt-table th, .nt-table td { padding: 6px 7px; text-align: left; vertical-align: top;
  border: none !important; border-bottom: 1px solid var(--border-color-primary) !important; }
.nt-table { border: none !important; }
.nt-table th { position: sticky; top: 0; background: var(--background-fill-secondary); font-weight: 600;
  white-space: nowrap; }
.nt-table .nt-num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.nt-table tbody tr:hover { background: var(--background-fill-secondary); }
.nt-board td.nt-model { min-width: 11rem; }
.nt-nowrap { white-space: nowrap; }
.nt-compact { width: auto; min-width: 16rem; }
.nt-compact th, .nt-compact td { padding: 3px 10px; }
.nt-empty { color: var(--body-text-color-subdued); font-style: italic; text-align: center !important; }
.nt-row-baseline td { background: rgba(100, 116, 139, 0.10); font-style: italic; }
.nt-row-reported td { background: rgba(234, 179, 8, 0.08); }
.nt-badge { display: inline-block; padding: 1px 7px; border-radius: 999px; font-size: 0.72rem; font-weight: 600;
  font-style: normal; letter-spacing: 0.02em; vertical-align: middle; white-space: nowrap; }
.nt-badge-baseline { background: #e2e8f0; color: #334155; }
.nt-badge-reported { background: #fef3c7; color: #92400e; }
.nt-badge-open { background: #dcfce7; color: #166534; }
.nt-badge-dev { background: #fde68a; color: #78350f; }
.nt-badge-pending { background: #e0e7ff; color: #3730a3; }
.nt-badge-running { background: #dbeafe; color: #1e40af; }
.nt-badge-finished { background: #dcfce7; color: #166534; }
.nt-badge-failed { background: #fee2e2; color: #991b1b; }
.nt-source { font-size: 0.8rem; margin-left: 4px; }
.nt-note { padding: 8px 12px; border-radius: 8px; margin: 6px 0; border-left: 4px solid; }
.nt-note-info { background: rgba(59, 130, 246, 0.08); border-color: #3b82f6; }
.nt-note-ok { background: rgba(34, 197, 94, 0.10); border-color: #22c55e; }
.nt-note-warn { background: rgba(234, 179, 8, 0.12); border-color: #eab308; }
.nt-note-error { background: rgba(239, 68, 68, 0.10); border-color: #ef4444; }
.nt-report h4, .nt-cols h4 { margin: 10px 0 4px; }
.nt-problems code { white-space: pre-wrap; }
.nt-big { font-size: 1.15rem; }
.nt-cols { display: flex; flex-wrap: wrap; gap: 18px; }
.nt-identity { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 6px 10px; border-radius: 8px;
  background: var(--background-fill-secondary); }
.nt-local { border: 1px dashed #d97706; }
.nt-inline { display: inline-flex; gap: 6px; align-items: center; margin: 0; }
.nt-inline input { padding: 4px 8px; border: 1px solid var(--border-color-primary); border-radius: 6px;
  background: var(--input-background-fill); color: var(--body-text-color); }
.nt-button { padding: 4px 12px; border-radius: 6px; border: 1px solid var(--border-color-primary);
  background: var(--button-secondary-background-fill); color: var(--button-secondary-text-color); cursor: pointer; }
.nt-small { font-size: 0.8rem; color: var(--body-text-color-subdued); width: 100%; }
.nt-legend { display: flex; flex-wrap: wrap; gap: 14px; font-size: 0.85rem; margin: 4px 0; }
.nt-legend i { display: inline-block; width: 14px; height: 10px; border-radius: 2px; margin-right: 5px;
  vertical-align: middle; }
.nt-task p { margin: 0.25em 0; }
#explorer-breakdown code { white-space: pre-wrap; overflow-wrap: anywhere; }
@media (max-width: 640px) {  /* a phone: the Explorer's figures fit the width, none behind a sideways scroll */
  #explorer-components { min-width: 0; width: 100%; }
  #explorer-components th, #explorer-components td { padding: 3px 4px; overflow-wrap: anywhere; }
}
.nt-facts th { width: 12rem; }
/* The maintainers' desk: the pending list in the page's width (long text wraps), buttons as tall as a line. */
.nt-pending { table-layout: auto; }
.nt-pending td { overflow-wrap: anywhere; }
.nt-pending code { white-space: nowrap; }
.nt-pending td:last-child { min-width: 14rem; }
#maint-pick, #maint-decide, #rescore-row { align-items: flex-end; }
#maint-pick > button, #maint-decide > button, .nt-confirm button { flex-grow: 0; align-self: flex-end; }
#maint-decide > button { min-height: 42px; max-height: 48px; }
#maint-refresh { max-height: 42px; margin-bottom: 4px; }
.nt-confirm { border: 2px solid #b45309; border-radius: 8px; padding: 8px 12px; }
.nt-declared-line { margin: 4px 0; }
@media (max-width: 640px) {  /* a phone: the picker takes the width, Refresh goes under it */
  #maint-pick { flex-wrap: wrap; }
  #maint-pick > .block, #maint-pick > div { min-width: 100% !important; }
}
#maint-status:empty, #edit-status:empty, #flag-status:empty { display: none; }
/* Who asks for less motion gets none: no colour fading in on buttons, no sliding panels. */
@media (prefers-reduced-motion: reduce) {
  *, *::before, *::after { transition: none !important; animation-duration: 0.01ms !important;
    animation-iteration-count: 1 !important; scroll-behavior: auto !important; }
}
#nt-header h1 { margin-bottom: 0; }
/* A focus ring that shows on every background (WCAG 2.4.7/2.4.11): 3 px, dark blue, white halo. */
:focus-visible, .nt-sort:focus-visible, [role="tab"]:focus-visible { outline: 3px solid #1d4ed8 !important;
  outline-offset: 2px !important; box-shadow: 0 0 0 5px #ffffff !important; border-radius: 4px; }
.dark :focus-visible { outline-color: #93c5fd !important; box-shadow: 0 0 0 5px #0b0f19 !important; }
/* Sortable headers: the whole label is a button; the sorted column says so with an arrow. */
.nt-table th:has(.nt-sort) { padding: 0; }
.nt-sort { all: unset; display: block; box-sizing: border-box; width: 100%; padding: 6px 7px; cursor: pointer;
  font-weight: 600; white-space: nowrap; }
.nt-num .nt-sort { text-align: right; }
.nt-sort:hover { text-decoration: underline; }
.nt-arrow { margin-left: 4px; font-size: 0.75em; color: #1d4ed8; }
.dark .nt-arrow { color: #93c5fd; }
.nt-ci { color: var(--body-text-color-subdued); font-size: 0.8em; white-space: nowrap; }
.nt-entry { font-weight: 600; }
.nt-link { font-size: 0.85rem; }
/* Charts: HTML bars and an SVG line, drawn once per change of the results. */
.nt-charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 360px), 1fr)); gap: 22px; }
.nt-chart { margin: 0; min-width: 0; }
.nt-chart figcaption { font-weight: 600; margin-bottom: 4px; }
.nt-chart .nt-small { font-weight: 400; }
.nt-legend { list-style: none !important; padding: 0 !important; margin: 4px 0 6px !important; gap: 4px 14px; }
.nt-legend li { margin: 0 !important; padding: 0 !important; display: inline-flex; align-items: center;
  max-width: 100%; overflow-wrap: anywhere; }
.nt-bar-group { margin: 6px 0 10px; }
.nt-bar-label { font-size: 0.85rem; font-weight: 600; margin-bottom: 2px; }
.nt-bar-row { display: flex; align-items: center; gap: 6px; height: 18px; margin: 1px 0; }
.nt-bar-track { position: relative; flex: 1; height: 11px; background: var(--background-fill-secondary);
  border-radius: 2px; }
.nt-bar { position: absolute; top: 0; bottom: 0; border-radius: 2px; }
.nt-bar-value { width: 3.6em; text-align: right; font-size: 0.78rem; line-height: 16px;
  font-variant-numeric: tabular-nums; }
.nt-progress-svg { width: 100%; max-width: 640px; height: auto; display: block; }
.nt-progress-svg .nt-grid { stroke: var(--border-color-primary); stroke-width: 1; }
.nt-progress-svg .nt-axis { font-size: 11px; fill: var(--body-text-color-subdued); }
/* A phone: rank, model and score without sideways scrolling; the header and the controls kept short. */
@media (max-width: 640px) {
  .nt-board .nt-sec { display: none; }
  .nt-board { font-size: 0.95rem; }
  .nt-board td.nt-model { min-width: 0; overflow-wrap: anywhere; }
  .nt-board .nt-ci { display: block; }
  #nt-header { flex-direction: column; gap: 4px !important; }
  #nt-header > div { width: 100% !important; }
  #identity .nt-small { display: none; }
  /* The introduction in three lines (the About tab has it all): the table starts in the first screen. */
  #nt-header p { font-size: 0.8rem; line-height: 1.35; display: -webkit-box; -webkit-line-clamp: 3;
    -webkit-box-orient: vertical; overflow: hidden; }
  #board-summary p { font-size: 0.85rem; margin: 0; }
  #board-controls .block { min-width: 100% !important; }
  #board-split .wrap { flex-wrap: nowrap; }
  #identity form { flex-wrap: wrap; }
  #board-controls { gap: 6px !important; }
  #board-columns { display: none !important; }
  /* The board's three switches as words side by side, wrapping: two short lines. */
  #board-toggles, #board-toggles .form { flex-wrap: wrap !important; gap: 0 12px !important; }
  #board-toggles .form { background: var(--block-background-fill) !important; }
  #board-toggles .block { min-width: 0 !important; flex: 0 1 auto !important; width: auto !important;
    padding: 0 6px !important; }
  #board-toggles label { font-size: 0.82rem; white-space: nowrap; line-height: 1.15; }
  #board-controls > div { min-width: 100% !important; }
  #nt-header h1 { font-size: 1.35rem; }
  #nt-header p { font-size: 0.85rem; margin: 2px 0; }
  #nt-header > div { min-width: 0 !important; }
  #identity-bar, #login-button { max-width: 100%; }
  #login-button { white-space: normal; }
  [role="tablist"] button { padding: 0 8px; }
  /* My submissions: model, status and score on a line, the message (why it failed, where it waits) on the
     next one, all in the width; the other columns are in the details under the table. */
  .nt-mine th:nth-child(n+4), .nt-mine td:nth-child(n+4):not(:last-child) { display: none; }
  .nt-mine tr { display: grid; grid-template-columns: minmax(0, 1fr) auto 4.2em; align-items: start; }
  .nt-mine td.nt-model { min-width: 0; overflow-wrap: anywhere; }
  .nt-mine td:last-child { grid-column: 1 / -1; padding-top: 0; font-size: 0.85rem; white-space: normal;
    overflow-wrap: anywhere; color: var(--body-text-color-subdued); }
  .nt-mine td:last-child:empty { display: none; }
}
"""
