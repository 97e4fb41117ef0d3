"""The Markdown report (printed and written to bench/results/latest.md)."""

from __future__ import annotations

from typing import Any

TARGETS = {
    "layer_over_raw": 0.6,  # the data layer's overview ÷ raw boto3's (100 and 1,000 positions)
    "query_ratio": 1.3,  # the overview at the largest table ÷ at the smallest
    "page_over_query": 1.6,  # the document page ÷ its Query (sessions and users read from the database)
    "position_page_over_query": 2.2,
    "fund_page_over_query": 1.5,  # the 20,000-position fund's first page ÷ its reads (summary + one page)
    "fund_middle_page_over_query": 1.5,  # its middle page
    "funds_list_over_query": 1.5,  # /funds/ (200 funds x 100 positions) ÷ its reads (catalog + summaries)
    "api_fund_lines_over_query": 1.3,  # /api/v1/funds/<fund>/lines ÷ the fund page's Query
    "api_position_over_query": 1.3,  # /api/v1/positions/<pos> ÷ the position page's Query
    "bulk_load_ratio": 1.0,
    "import_rows_per_s": 1000,
    "import_over_raw": 0.6,  # the import's rows/s ÷ raw single-thread BatchWriteItem of its items
    "paced_import_slower": 1.05,  # the paced import's replay at the production target ÷ the target's duration
}


def _mark(ok: bool) -> str:
    return "met" if ok else "**missed**"


def _table(header: list[str], rows: list[list[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def render(results: dict[str, Any]) -> str:
    m = results["machine"]
    out = [
        "# Benchmark results",
        "",
        f"{results['generated_at']} · {results['mode']} run · {m['cpu_count']} CPUs ({m['machine']}) · "
        f"load average {m['load_average']:.1f} at start, {results.get('load_average_after', 0):.1f} at end · "
        f"Python {m['python']} · boto3 {m['boto3']} / botocore {m['botocore']} · PynamoDB {m['pynamodb']} · "
        f"DynamoDB Local {m['dynamodb_local']} (in memory, loopback, a fresh server per section) · "
        f"total {results.get('total_seconds', '?')} s",
        "",
        "Medians after warm-up; every ratio comes from contenders measured side by side, interleaved in "
        "shuffled order within each trial of the same run.",
    ]
    sections = (
        ("scale", _scale),
        ("overview", _overview),
        ("pages", _pages),
        ("bulk_load", _bulk),
        ("data_io", _data_io),
        ("hot_keys", _hot_keys),
    )
    for name, render_section in sections:
        if name not in results:
            continue
        if "error" in results[name]:
            out += ["", f"## {name}", "", f"**Failed:** {results[name]['error']}"]
        else:
            out += ["", *render_section(results[name])]
    out += ["", *_targets({k: v for k, v in results.items() if not (isinstance(v, dict) and "error" in v)})]
    return "\n".join(out) + "\n"


def _scale(scale: dict[str, Any]) -> list[str]:
    rows = []
    for size, by_design in scale["sizes"].items():
        for design, ops in by_design["designs"].items():
            for op, r in ops.items():
                rows.append(
                    [
                        f"{int(size):,}",
                        design,
                        op,
                        r["requests"],
                        f"{r['rcu']:g}",
                        f"{r['median_ms']:.1f}",
                        r["trials"],
                    ]
                )
    lines = [
        "## 1. The seed's comparison: three designs as the table grows",
        "",
        f"Document overview of a {scale['document_positions']}-position document and one position across "
        f"{scale['position_documents']} documents; the rest of each table is other documents of the same shape. "
        "Requests and RCU as reported by DynamoDB (ReturnConsumedCapacity=TOTAL).",
        "",
        *_table(["items in table", "design", "access pattern", "requests", "RCU", "median ms", "trials"], rows),
        "",
        f"Overview at the largest size ÷ at the smallest: proper single-table design **{scale['query_ratio']}x**, "
        f"position-centric {scale['position_centric_ratio']}x, Scan design **{scale['scan_ratio']}x**.",
    ]
    lines += [
        "",
        "The smallest table is measured first, while DynamoDB Local's JVM is still warming up, so its Query "
        "times read high; a ratio below 1 means flat.",
    ]
    if scale.get("notes"):
        lines += ["", *[f"- {n}" for n in scale["notes"]]]
    return lines


def _overview(overview: dict[str, Any]) -> list[str]:
    lines = [
        "## 2. Document overview: data layer vs raw boto3 vs Table resource vs PynamoDB",
        "",
        "Same table, same items, one Query on the document partition (following LastEvaluatedKey). "
        "Wall = median ms per overview; CPU = median client process CPU ms.",
        "",
    ]
    rows = []
    for positions, r in overview.items():
        if not isinstance(r, dict) or "contenders" not in r:
            continue
        for name, c in r["contenders"].items():
            rows.append(
                [
                    positions,
                    f"{r['items']} items, {r['kb']} KB JSON, {r['requests']} req, {r['rcu']:g} RCU",
                    name,
                    f"{c['median_ms']:.2f}",
                    f"{c['cpu_ms']:.2f}",
                    f"{c['over_raw']:.2f}x",
                    f"{c['cpu_over_raw']:.2f}x",
                ]
            )
    lines += _table(["positions", "document", "contender", "wall ms", "CPU ms", "wall ÷ raw", "CPU ÷ raw"], rows)
    return lines


def _pages(pages: dict[str, Any]) -> list[str]:
    if pages.get("skipped"):
        return ["## 3. Pages through gunicorn", "", f"Skipped: {pages['skipped']}"]
    rows = [
        [
            p["path"],
            p["requests"],
            f"{p['p50_ms']:.1f}",
            f"{p['p95_ms']:.1f}",
            f"{p['query_p50_ms']:.1f}",
            f"{p['page_over_query']:.2f}x",
            f"{p['under_load']['rps']:.0f}",
            f"{p['under_load']['p50_ms']:.1f} / {p['under_load']['p95_ms']:.1f}",
        ]
        for p in pages["pages"]
    ]
    return [
        "## 3. Pages through gunicorn",
        "",
        f"gunicorn with {pages['workers']} workers on 127.0.0.1, fundportal.settings.local, a signed-in session "
        f"(login form), DynamoDB Local as above. Document page: a {pages['document_positions']}-position document "
        f"(304 items, one Query); position page: one position across {pages['position_documents']} documents "
        "(one Query on the position index); fund page: a fund of "
        f"{pages.get('fund_positions', 0):,} positions (its summary shards by BatchGetItem and one page of "
        f"{pages.get('fund_query', {}).get('items', 0):,} registers by Query: "
        f"{pages.get('fund_query', {}).get('requests', 0)} requests, "
        f"{pages.get('fund_query', {}).get('read_units', 0)} "
        f"RCU; the middle page {pages.get('fund_middle_query', {}).get('read_units', 0)} RCU); /funds/: "
        f"{pages.get('list_funds', 0):,} funds of {pages.get('list_fund_positions', 0):,} positions (the catalog "
        f"and their summaries: {pages.get('funds_list_query', {}).get('requests', 0)} requests, "
        f"{pages.get('funds_list_query', {}).get('read_units', 0)} RCU). "
        "Latency columns: one request at a time, interleaved per trial with "
        "the data-layer call the page makes (query p50, measured in the bench process). Under load: "
        f"{pages['concurrency']} keep-alive clients (http.client threads), "
        f"{pages['pages'][0]['under_load']['requests']} requests per page.",
        "",
        *_table(
            [
                "page",
                "requests",
                "p50 ms",
                "p95 ms",
                "query p50 ms",
                "page ÷ query",
                "req/s under load",
                "p50 / p95 under load",
            ],
            rows,
        ),
        *_api_fixed_cost(pages),
    ]


def _api_fixed_cost(pages: dict[str, Any]) -> list[str]:
    """The read API's cost before any DynamoDB request, against the position query (the API's
    ≤ 1.3x targets leave 0.3 of the query for everything else)."""
    fixed = pages.get("api_fixed_cost")
    if not fixed:
        return []
    return [
        "",
        f"The read API's fixed cost: `{fixed['path']}` (an id refused before any DynamoDB request: the token, "
        f"the throttle, routing, the problem JSON, gunicorn and HTTP) p50 **{fixed['p50_ms']:.1f} ms**, "
        f"{fixed['of_position_query']:.2f} of the position query's p50 (a ≤ 1.3x target leaves 0.30 of it).",
    ]


def _bulk(bulk: dict[str, Any]) -> list[str]:
    rows = [
        [name, f"{r['items']:,}", f"{r['seconds']:.1f}", f"{r['items_per_s']:,.0f}"] for name, r in bulk["runs"].items()
    ]
    return [
        "## 4. Bulk load",
        "",
        bulk["description"],
        "",
        *_table(["loader", "items", "seconds", "items/s"], rows),
        "",
        f"Ratio {bulk['ratio']}x raw single-thread.",
    ]


def _data_io(section: dict[str, Any]) -> list[str]:
    """Notice import rows/s and the XLSX export of a large document vs its query."""
    imp, exp = section["import"], section["export"]
    p50 = exp["p50_ms"]
    return [
        "## 5. Data in and out",
        "",
        section["description"],
        "",
        *_table(
            ["what", "figure"],
            [
                [
                    f"import {imp['rows']:,} rows ({imp['workers']} workers)",
                    f"{imp['total_s']} s = validate {imp['validate_s']} s + write {imp['write_s']} s; "
                    f"**{imp['rows_per_s']:,.0f} rows/s** (target ≥ 1,000)",
                ],
                *(
                    [
                        [
                            f"raw single-thread `batch_write_item` of the {imp['raw']['items']:,} items it writes",
                            f"{imp['raw']['seconds']} s; **{imp['raw']['rows_per_s']:,.0f} rows/s** "
                            f"({imp['raw']['items_per_s']:,} items/s)",
                        ],
                        [
                            "import ÷ raw, side by side",
                            f"**{imp['import_over_raw']}x** (target ≥ 0.6x; rounds: "
                            f"{', '.join(f'{r}x' for r in imp['round_ratios'])})",
                        ],
                    ]
                    if "raw" in imp
                    else []
                ),
                ["same file again", f"{imp['second_run_s']} s, nothing written"],
                *(
                    [
                        [
                            "the next notice: a new document for the same positions (registers exist)",
                            f"**{imp['next_notice_rows_per_s']:,.0f} rows/s**",
                        ]
                    ]
                    if "next_notice_rows_per_s" in imp
                    else []
                ),
                *(
                    [["the first import (cold server JVM)", f"{imp['cold_rows_per_s']:,.0f} rows/s"]]
                    if "cold_rows_per_s" in imp
                    else []
                ),
                [
                    f"XLSX of {exp['positions']:,} positions ({exp['xlsx_bytes']:,} bytes)",
                    f"p50 {p50['xlsx export']} ms vs query {p50['overview query']} ms → {exp['ratio']}x",
                ],
                *([_statement_row(section["statement"])] if "statement" in section else []),
            ],
        ),
    ]


def _statement_row(statement: dict[str, Any]) -> list[str]:
    p50 = statement["p50_ms"]
    return [
        f"ILPA statement PDF of a {statement['documents']}-document position ({statement['pdf_bytes']:,} bytes)",
        f"p50 {p50['statement pdf']} ms vs query {p50['position query']} ms → {statement['ratio']}x; "
        f"{_mark(statement['within_target'])} under {statement['target_ms']:,} ms",
    ]


def _hot_keys(section: dict[str, Any]) -> list[str]:
    """Per scenario, the hottest partitions at the production target and their share of the limits."""
    limits = section["limits"]
    wcu, rcu = f"{limits['wcu_per_s']:,.0f}", f"{limits['rcu_per_s']:,.0f}"
    lines = [
        "## 6. Hot keys: units per partition key per second at the production target",
        "",
        "Every request of each scenario recorded the partitions it touched (base table and each index) and "
        "the bytes billed; the load model (bench/load_model.py, AWS's rules: 1 WCU per 1 KB written, 2 in a "
        "transaction, the index entry's size on each index; 1 RCU per 4 KB read, half eventually consistent) "
        "sums the units per key, scales them linearly to the target, and replays the run at the target pace: "
        "WCU/s and RCU/s are each key's busiest second, judged against the limits; avg is the average over the "
        f"run. Limits: {wcu} WCU/s and {rcu} RCU/s per partition; **OVER** marks a key past either. The imports "
        "pace their writes per partition: their replay holds every partition's writes to the limit (a key's "
        "writes past it queue), says how long the run then takes, and gives each key's unpaced busiest second "
        "beside it (what DynamoDB would throttle without pacing).",
    ]
    for name, s in section["scenarios"].items():
        paced = s.get("paced")
        rows = [
            [
                f"`{k['key']}`",
                k["table"],
                f"{k['wcu_per_s']:,.1f}",
                f"{k['rcu_per_s']:,.1f}",
                f"{k['average_wcu_per_s']:,.1f} / {k['average_rcu_per_s']:,.1f}",
                f"{k['wcu_share']:.0%}",
                f"{k['rcu_share']:.0%}",
                "**OVER**" if k["over_limit"] else "",
                *([f"{k['unpaced_wcu_per_s']:,.1f}"] if paced else []),
            ]
            for k in s["hottest"]
        ]
        headings = ["key", "table / index", "WCU/s", "RCU/s", "avg WCU/s / RCU/s", f"of {wcu} WCU", f"of {rcu} RCU", ""]
        pacing = []
        if paced:
            headings.append("unpaced WCU/s")
            pacing = [
                f"Paced: the run takes {paced['seconds']} s at the target pace ({paced['slower']}x the target's "
                f"{s['target_seconds']} s: {paced['operations_per_s']:,.0f} operations/s); the longest wait of a "
                f"write for its partition {paced['longest_wait']} s; unpaced, {paced['unpaced_over_limit']} keys "
                "would be over a limit.",
            ]
        lines += [
            "",
            f"### {name}: {s['description']}",
            "",
            f"Measured: {s['operations']:,} operations in {s['seconds']} s, {s['requests']:,} requests, "
            f"{s['measured_wcu']:,} WCU and {s['measured_rcu']:,} RCU over {s['partitions']:,} partitions; "
            f"units x{s['unit_factor']} to the target size, replayed over {s['target_seconds']} s. "
            f"Keys over a limit: **{s['over_limit']}**.",
            *(["", *pacing] if pacing else []),
            "",
            *_table(headings, rows),
        ]
    return lines


def _targets(results: dict[str, Any]) -> list[str]:
    rows = []
    overview = results.get("overview", {})
    for positions in ("100", "1000"):
        if positions in overview:
            v = overview[positions]["layer_over_raw"]
            goal = TARGETS["layer_over_raw"]
            rows.append([f"data layer ÷ raw boto3, {positions} positions", f"≤ {goal}x", f"{v}x", _mark(v <= goal)])
    scale = results.get("scale")
    if scale:
        v = scale["query_ratio"]
        goal = TARGETS["query_ratio"]
        rows.append(["overview at largest ÷ smallest table", f"≤ {goal}x", f"{v}x", _mark(v <= goal)])
    pages = results.get("pages")
    if pages and not pages.get("skipped"):
        v = pages["page_over_query"]
        goal = TARGETS["page_over_query"]
        rows.append(["document page p50 ÷ its query p50", f"≤ {goal}x", f"{v}x", _mark(v <= goal)])
        if "position_page_over_query" in pages:
            v = pages["position_page_over_query"]
            goal = TARGETS["position_page_over_query"]
            rows.append(["position page p50 ÷ its query p50", f"≤ {goal}x", f"{v}x", _mark(v <= goal)])
        for key, what in (
            ("fund_page_over_query", f"fund page ({pages.get('fund_positions', 0):,} positions) ÷ its reads"),
            ("fund_middle_page_over_query", "the fund's middle page ÷ its reads"),
            ("funds_list_over_query", "/funds/ ÷ its reads (catalog + summaries)"),
            ("api_fund_lines_over_query", "API fund lines p50 ÷ the fund page's reads p50"),
            ("api_position_over_query", "API position history p50 ÷ the position query p50"),
        ):
            if key in pages:
                v, goal = pages[key], TARGETS[key]
                rows.append([what, f"≤ {goal}x", f"{v}x", _mark(v <= goal)])
    bulk = results.get("bulk_load")
    if bulk:
        v = bulk["ratio"]
        goal = TARGETS["bulk_load_ratio"]
        rows.append(["bulk load ÷ raw single-thread", f"≥ {goal}x", f"{v}x", _mark(v >= goal)])
    data_io = results.get("data_io")
    if data_io and "import" in data_io:
        v = data_io["import"]["rows_per_s"]
        goal = TARGETS["import_rows_per_s"]
        wanted = f"≥ {goal:,} rows/s"
        rows.append(["import of a 10,000-row notice (new positions)", wanted, f"{v:,.0f}", _mark(v >= goal)])
        if "import_over_raw" in data_io["import"]:
            ratio, least = data_io["import"]["import_over_raw"], TARGETS["import_over_raw"]
            what = "that import ÷ raw single-thread BatchWriteItem of its items"
            rows.append([what, f"≥ {least}x", f"{ratio}x", _mark(ratio >= least)])
        if "next_notice_rows_per_s" in data_io["import"]:
            v = data_io["import"]["next_notice_rows_per_s"]
            rows.append(["import of the next notice (same positions)", wanted, f"{v:,.0f}", _mark(v >= goal)])
    hot_keys = results.get("hot_keys")
    if hot_keys:
        for name, s in hot_keys["scenarios"].items():
            over = s["over_limit"]
            rows.append([f"hot keys, {name}: partitions over their limit", "0", over, _mark(over == 0)])
            if s.get("paced"):
                v, goal = s["paced"]["slower"], TARGETS["paced_import_slower"]
                what = f"hot keys, {name}: paced run ÷ the target's duration"
                rows.append([what, f"≤ {goal}x", f"{v}x", _mark(v <= goal)])
    return ["## Targets", "", *_table(["target", "goal", "measured", ""], rows)]
