"""The look: one stylesheet for the ``nt-*`` classes the HTML views use (light and dark)."""

from __future__ import annotations

import gradio as gr

THEME = gr.themes.Soft(primary_hue="emerald", secondary_hue="blue", neutral_hue="slate")

CSS = """
.nt-help p { margin: 0.2em 0; }
.nt-table-wrap { overflow-x: auto; max-width: 100%; }
.nt-table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
.nt-table th, .nt-table td { padding: 6px 7px; text-align: left; vertical-align: top;
  border: none !important; border-bottom: 1px solid var(--border-color-primary) !important; }
.nt-table { border: none !important; }
.nt-table th { position: sticky; top: 0; background: var(--background-fill-secondary); font-weight: 600;
  white-space: nowrap; }
.nt-table .nt-num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.nt-table tbody tr:hover { background: var(--background-fill-secondary); }
.nt-board td:nth-child(2) { min-width: 11rem; }
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
#nt-header h1 { margin-bottom: 0; }
"""
