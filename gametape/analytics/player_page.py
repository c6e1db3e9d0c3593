"""One person's page (``gametape players NAME -f html``): their record in every game, their
rating or team score game by game and their scores as SVG charts, their games by player count
and their own play. One self-contained file with no script; every name is escaped text. It
reads in the language chosen (``--lang``), right to left where it is written so, numbers in
its digits."""

from __future__ import annotations

from html import escape
from typing import Any

from gametape.charts import svg_bars, svg_line
from gametape.i18n import RTL, default
from gametape.messages import Message, Term, current, many, render, say

STYLE = """
:root { color-scheme: dark; --bg: #101015; --panel: #16161d; --line: #2c2c38; --fg: #e6e6e6;
  --dim: #9a9aa6; --accent: #f0b429; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
header, main { padding: .7rem 1rem; }
header { border-bottom: 1px solid var(--line); }
h1 { font-size: 1.25rem; margin: 0; overflow-wrap: anywhere; }
h2 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
p.dim, .dim { color: var(--dim); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: .3rem 0; }
th, td { padding: .2rem .6rem; border-bottom: 1px solid var(--line); text-align: end; }
th:first-child, td:first-child { text-align: start; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr));
  gap: 1rem; }
figure { margin: 0; background: var(--panel); border-radius: 6px; padding: .5rem; }
figcaption { font-weight: 600; margin-bottom: .2rem; }
svg.chart { width: 100%; height: auto; display: block; }
svg.chart text { fill: var(--dim); font-size: 12px; }
svg.chart .axis { stroke: var(--line); }
svg.chart polyline { fill: none; stroke: var(--accent); stroke-width: 2; }
svg.chart .dots circle { fill: var(--accent); }
svg.chart rect { fill: #4ba3c7; }
"""
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
RECORD = [  # each field of a record, and its heading (gametape's word for it: core.column)
    ("ruleset", "game"),
    ("games", "games"),
    ("wins", "won"),
    ("draws", "drawn"),
    ("losses", "lost"),
    ("streak", "streak"),
    ("best_streak", "best win streak"),
    ("rating", "rating"),
    ("mean_score", "mean score"),
    ("last_played", "last game"),
]


def _cell(value: Any) -> str:
    if value is None:
        return ""
    said = current().digits(str(value)) if isinstance(value, int | float) else str(value)
    return escape(said)


def _heads(*columns: str) -> list[str]:
    return [render(Term("core.column", c)) for c in columns]


def _table(headings: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headings)
    body = "".join("<tr>" + "".join(f"<td>{_cell(v)}</td>" for v in row) + "</tr>" for row in rows)
    return f'<div class="scroll"><table><tr>{head}</tr>{body}</table></div>'


def page(found: dict[str, Any], counted: str) -> str:
    """The page of the one person in ``found`` (``ReadModel.players(name)``'s answer);
    ``counted`` says in words which games were counted."""
    rows = found["players"]
    detail = found["detail"]
    name = rows[0]["name"]
    spellings = sorted({w for r in rows for w in r["written"]} - {name})
    also = (
        "; " + render(say("core.also-played-as", "also played as {names}", names=many(spellings)))
        if spellings
        else ""
    )
    parts = [
        f"<header><h1>{escape(name)}</h1>",
        f'<p class="dim">{escape(counted + also)}</p></header><main>',
        _h2(say("core.page-record", "Record")),
        _table(_heads(*(h for _, h in RECORD)), [[r[k] for k, _ in RECORD] for r in rows]),
    ]
    charts = [_over_time(series) for series in detail["history"]] + [
        svg_figure(
            render(say("core.page-scores", "{game}: scores", game=h["ruleset"])),
            svg_bars(h["bins"], render(Term("core.column", "scores"))),
        )
        for h in detail["histograms"]
    ]
    if charts:
        parts += [_h2(say("core.page-over-time", "Over time")),
                  f'<div class="charts">{"".join(charts)}</div>']  # fmt: skip
    parts += [
        _h2(say("core.page-by-player-count", "By player count")),
        _table(
            _heads("game", "players", "games", "mean score"),
            [list(r.values()) for r in detail["by_player_count"]],
        ),
    ]
    for facts in detail["facts"]:
        game = facts["ruleset"]
        # a fact is the game's word for it: in English its name, in words (clues given)
        pairs = [
            [render(Term(f"{game}.column", k.replace("_", " "))), v]
            for k, v in facts.items()
            if k != "ruleset"
        ]
        parts += [
            _h2(say("core.page-own-play", "{game}: their own play", game=game)),
            _table(["", *_heads("total")], pairs),
        ]
    parts.append("</main>")
    lang = default()
    direction = ' dir="rtl"' if lang in RTL else ""
    return (
        f'<!doctype html>\n<html lang="{lang}"{direction}><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="generator" content="gametape">'
        f"<title>{escape(name)} · gametape</title><style>{STYLE}</style></head>"
        f"<body>{''.join(parts)}</body></html>\n"
    )


def _h2(said: Message) -> str:
    return f"<h2>{escape(render(said))}</h2>"


def _over_time(series: dict[str, Any]) -> str:
    """A person's rating (or score) after each game, as a line."""
    of = render(Term("core.column", series["of"]))
    caption = say("core.page-after-each", "{game}: {of} after each game", game=series["ruleset"],
                  of=Term("core.column", series["of"]))  # fmt: skip
    return svg_figure(render(caption), svg_line(series["values"], of))


def svg_figure(caption: str, svg: str) -> str:
    """A chart with its caption."""
    return f"<figure><figcaption>{escape(caption)}</figcaption>{svg}</figure>"
