"""grep output: recognised in both layouts, hits scored with their path, headings kept."""

from __future__ import annotations

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.structure.grep import grep_headings
from mcp_pruner_server.pruning.types import PruneOptions

FLAT = [
    "./x/net/bpf/instructions.go:362:// StoreScratch stores register Src into scratch[N].",
    "./x/net/bpf/instructions.go:363:type StoreScratch struct {",
    "./x/net/bpf/instructions.go:390:func (a StoreScratch) String() string {",
    "./x/net/bpf/vm_scratch_test.go-14-	filter := []bpf.Instruction{",
    "./x/net/bpf/vm_scratch_test.go:15:		bpf.StoreScratch{",
]
HEADING = [
    "./codec/binc.go",
    "1144:func (h *BincHandle) newEncDriver() encDriver {",
    "",
    "./codec/encode.go",
    "23:type encDriver interface {",
    "24-	encodeBool(b bool)",
    "--",
    "310:	e encDriver",
]


def test_flat_hits_are_their_own_heading() -> None:
    assert grep_headings(FLAT) == [0, 1, 2, 3, 4]


def test_heading_hits_belong_to_the_path_line_above() -> None:
    assert grep_headings(HEADING) == [None, 0, None, None, 3, 3, None, 3]


def test_compiler_diagnostics_and_ordinary_logs_are_not_grep_output() -> None:
    diagnostics = [f"stock/stock.go:{k}:9: invalid operation: t + 1" for k in range(10)]
    assert grep_headings(diagnostics) is None
    mypy = [f"pkg/mod.py:{k}: error: Incompatible return value type" for k in range(10)]
    assert grep_headings(mypy) is None
    log = ["collected 3 items", "test_a.py::test_x PASSED", "test_a.py:12: AssertionError", "1 failed"]
    assert grep_headings(log) is None
    assert grep_headings(["./a.go", "just a line of prose", "12:x"]) is None


def _kept(lines: list[str], question: str) -> list[str]:
    options = PruneOptions(max_prune_ratio=0.9, min_keep_lines=0, include_markers=False)
    return prune("\n".join(lines), question, "logs", options, "t").pruned_text.split("\n")


def test_the_definition_the_question_spells_out_is_kept_with_its_heading() -> None:
    noise = []
    for k in range(30):
        noise += [f"./codec/gen{k}.go", f"{100 + k}:func (h *H{k}) newEncDriver() encDriver {{", ""]
    kept = _kept([*noise[:45], *HEADING[3:6], "", *noise[45:]], "where is enc-driver defined?")
    assert "23:type encDriver interface {" in kept
    assert "./codec/encode.go" in kept


def test_an_error_word_in_a_hit_is_not_a_failure_to_keep() -> None:
    lines = [f'./pkg/m{k}.go:{k}:	return fmt.Errorf("bad input {k}")' for k in range(60)]
    lines.append("./pkg/parser_test.go:88:	if err := parseHeader(); err != nil {")
    kept = _kept(lines, "how does parser test call parse header?")
    assert len(kept) <= 10
    assert lines[-1] in kept


def test_a_question_about_one_file_keeps_all_its_hits() -> None:
    lines = [f"./gin/render/r{k}.go:{k}:	x := HTMLDebug{{}}" for k in range(40)]
    mine = [f"./gin/render/render_test.go:{n}:	htmlRender := HTMLDebug{{" for n in (422, 441, 459)]
    lines[20:20] = mine
    kept = _kept(lines, "how does render test use html debug?")
    assert all(line in kept for line in mine)
    assert len(kept) <= 6
