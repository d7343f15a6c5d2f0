"""grep output: recognised in both layouts, hits scored with their path, headings kept."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.errors import EngineTimeout
from mcp_pruner_server.pruning.scoring import line_hits, line_terms, query_weights
from mcp_pruner_server.pruning.structure import grep
from mcp_pruner_server.pruning.structure.grep import MAX_FILE_HITS, grep_units
from mcp_pruner_server.pruning.structure.grep_layout import grep_headings, path_and_text
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


def test_a_ruby_singleton_method_and_a_shell_function_are_definitions() -> None:
    calls = [f"./lib/cmd{k}.rb:{k + 3}:    opts = parse_options(argv, {k})" for k in range(60)]
    definition = "./lib/cli.rb:12:  def self.parse_options(argv, defaults)"
    kept = _kept([*calls[:30], definition, *calls[30:]], "where is parse options defined?")
    assert definition in kept
    calls = [f'./scripts/step{k}.sh:{k + 3}:  log_step "stage {k}"' for k in range(60)]
    definition = "./scripts/common.sh:8:log_step() {"
    kept = _kept([*calls[:30], definition, *calls[30:]], "where is log step defined?")
    assert definition in kept


def test_a_bare_call_outside_a_shell_script_is_no_definition() -> None:
    calls = [f"./tests/test_m{k}.py:{k + 3}:    configure()" for k in range(60)]
    definition = "./pkg/settings.py:40:def configure(options=None):"
    kept = _kept([*calls[:30], definition, *calls[30:]], "where is configure defined?")
    assert definition in kept


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


def _best(lines: list[str], question: str) -> list[str]:
    """The lines of the best-scoring unit."""
    query = query_weights(question)
    headings = grep_headings(lines)
    assert headings is not None
    units = grep_units(
        lines, headings, line_hits(line_terms(lines), query), query, goal_hint=question, deadline=NO_DEADLINE
    )
    return [lines[i] for i in max(units, key=lambda u: u.score).lines]


def test_the_file_the_question_names_wins_over_the_definition_elsewhere() -> None:
    lines = [f"./codec/fast_path{k}.go:{k}:	f.DecMapStringX(v, d)" for k in range(30)]
    lines.insert(
        10, "./codec/fast_path_generated.go:4184:func (f fastpathT) DecMapStringX(vp *map[string][]byte) {"
    )
    mine = [f"./codec/values_generated_test.go:{n}:	z.F.DecMapStringX(&x.M, d)" for n in (3692, 4167)]
    mine.append("./codec/values_generated_test.go:6254:	z.F.DecMapStringX(&x.TestCommon.M, d)")
    lines[20:20] = mine
    # all of that file's hits, as one unit: the answer is how the file uses the name
    assert _best(lines, "how does values generated test use dec map string x?") == mine


def test_a_file_named_after_part_of_the_searched_name_is_no_hint_where_it_is_defined() -> None:
    # `register_ext.go` shares `ext` with `InterfaceExt`: its hits are no definition of it
    lines = [f"./codec/use{k}.go:{k}:	var e InterfaceExt" for k in range(30)]
    lines[5:5] = [
        f"./codec/register_ext.go:{n}:func (h *H{n}) SetInterfaceExt(t reflect.Type, e InterfaceExt) error {{"
        for n in (12, 17, 36)
    ]
    lines.insert(20, "./codec/helper.go:1392:type InterfaceExt interface {")
    assert _best(lines, "show the definition of interface ext") == [
        "./codec/helper.go:1392:type InterfaceExt interface {"
    ]


def test_a_file_named_after_the_whole_searched_name_is_where_it_is_defined() -> None:
    # `DecimalFormat.java` is named by a run of the searched name's words, not by the question
    lines = [f"./src/Use{k}.java:{k}:    DecimalFormatSymbols s = x.symbols();" for k in range(30)]
    lines[3:3] = [
        f"./src/DecimalFormat.java:{k}:    DecimalFormatSymbols s = x.symbols();" for k in range(12)
    ]
    lines.insert(
        12, "./src/DecimalFormatSymbols.java:73:public class DecimalFormatSymbols implements Cloneable {"
    )
    assert _best(lines, "where is decimal-format-symbols defined?") == [lines[12]]


def test_a_flat_hit_s_path_is_not_the_searched_pattern() -> None:
    # most hits are in `filepost.py`: its name is in most flat lines, yet it is the file asked about
    mine = [
        f"./urllib3/filepost.py:{n}:    if isinstance(field, RequestField):" for n in (39, 42, 51, 53, 68)
    ]
    lines = [
        "./urllib3/fields.py:126:class RequestField(object):",
        "./urllib3/fields.py:162:    A RequestField factory from old-style tuple parameters.",
        *mine,
        "./urllib3/poolmanager.py:9:from .fields import RequestField",
    ]
    assert _best(lines, "how does filepost use request-field?") == mine


def test_a_synonym_of_a_question_word_names_no_file() -> None:
    # "builder" has the synonym `init`: `__init__.py` is not the file the question names
    lines = [f"./x509/__init__.py:{n}:    CertificateBuilder," for n in (12, 234)]
    lines += [f"./x509/use{k}.py:{k}:    b = CertificateBuilder()" for k in range(10)]
    lines.insert(5, "./x509/base.py:651:class CertificateBuilder:")
    assert _best(lines, "show the definition of certificate builder") == [lines[5]]


def test_a_file_named_by_a_part_of_the_searched_name_the_question_says_apart() -> None:
    # "spend limit" is said on its own, beside the searched `project-spend-limit`
    lines = [
        "./types/project_spend_limit.py:8:__all__ = ['ProjectSpendLimit', 'Enforcement']",
        "./types/project_spend_limit.py:18:class ProjectSpendLimit(BaseModel):",
    ]
    mine = [f"./resources/spend_limit.py:{n}:    ) -> ProjectSpendLimit:" for n in (53, 93, 203)]
    lines += [*mine, "./types/__init__.py:3:from .project_spend_limit import ProjectSpendLimit"]
    assert _best(lines, "how does spend limit use project-spend-limit?") == mine


def test_files_of_the_base_name_the_question_says_are_kept_together() -> None:
    # "index" fits `index.cjs` and `index.mjs` alike: keep both rather than guess
    lines = [f"./undici/lib/m{k}.js:{k}:function caseSensitiveMatch (a, b) {{" for k in range(3)]
    cjs = [f"./tinyglobby/dist/index.cjs:{n}:	nocase: !caseSensitiveMatch," for n in (146, 236)]
    mjs = ["./tinyglobby/dist/index.mjs:212:	nocase: !caseSensitiveMatch,"]
    lines += [*cjs, *mjs]
    assert _best(lines, "how does index use case-sensitive-match?") == [*cjs, *mjs]


def test_a_file_named_after_a_part_of_the_searched_name_is_not_its_definition() -> None:
    # `cipher.go` is named by a word of `NewUnauthenticatedCipher`, not after it
    lines = [
        f"./ssh/cipher.go:{n}:	s, err := chacha20.NewUnauthenticatedCipher(c.key[:], nonce)"
        for n in (669, 683)
    ]
    lines += [f"./x/use{k}.go:{k}:	c, _ := chacha20.NewUnauthenticatedCipher(k, n)" for k in range(8)]
    lines.insert(
        4,
        "./chacha20/chacha_generic.go:72:func NewUnauthenticatedCipher(key, nonce []byte) (*Cipher, error) {",
    )
    assert _best(lines, "where is new unauthenticated cipher defined?") == [lines[4]]


def test_a_leading_underscore_does_not_tell_the_files_the_question_names_apart() -> None:
    mine = [f"./lib/_responses.py:{n}:    ParsedResponse," for n in (20, 56)]
    theirs = [f"./resources/responses.py:{n}:    ) -> ParsedResponse[T]: ..." for n in (172, 219)]
    lines = [*mine, *[f"./types/t{k}.py:{k}:x: ParsedResponse" for k in range(6)], *theirs]
    assert _best(lines, "how does responses use parsed-response?") == [*mine, *theirs]


def test_a_file_with_too_many_hits_is_shown_by_its_first_ones() -> None:
    lines = ["./codec/helper.go:12:type codecFnInfo struct {"]
    lines += [
        f"./codec/fast-path.generated.go:{n}:	fe func(*Encoder, *codecFnInfo)"
        for n in range(40, 40 + 3 * 30, 3)
    ]
    best = _best(lines, "how does fast path generated use codec fn info?")
    assert best == lines[1 : 1 + MAX_FILE_HITS]


def test_a_question_asking_for_a_definition_names_no_file_by_its_wording() -> None:
    # "show" the verb is not `show.py`
    lines = [f"./pip/commands/show.py:{n}:    env = get_default_environment()" for n in (9, 79)]
    lines += [f"./pip/m{k}.py:{k}:    env = get_default_environment()" for k in range(6)]
    lines.insert(3, "./pip/metadata/__init__.py:68:def get_default_environment() -> BaseEnvironment:")
    assert _best(lines, "show the definition of get default environment") == [lines[3]]


def test_a_file_named_as_one_run_together_word_is_found_by_its_stem() -> None:
    # "printwriter" is stemmed as the question's words are; `PrintWriter` must meet it
    lines = [f"./java/io/OutputStreamWriter.java:{n}: * Creates an OutputStreamWriter" for n in (35, 46, 76)]
    lines.append("./java/io/PrintWriter.java:120:     * necessary intermediate OutputStreamWriter, which")
    lines += [f"./java/io/Other{k}.java:{k}:    new OutputStreamWriter(out)" for k in range(5)]
    assert _best(lines, "how does printwriter use output stream writer?") == [lines[3]]


def test_the_file_the_question_names_wholly_wins_over_one_it_names_in_part() -> None:
    # "formatter" is all of `Formatter.java`, a part of `SimpleDateFormat.java`
    lines = [
        f"./java/text/SimpleDateFormat.java:{n}:    private DateFormatSymbols formatData;" for n in (60, 527)
    ]
    lines.append("./java/util/Formatter.java:46:import java.text.DateFormatSymbols;")
    lines += [f"./java/text/X{k}.java:{k}:    DateFormatSymbols s;" for k in range(5)]
    assert _best(lines, "how does formatter use date-format-symbols?") == [lines[2]]


def test_the_searched_name_s_words_in_a_path_do_not_outrank_the_file_the_question_names() -> None:
    # `FoldingSet.h` holds words of the searched `FoldingSetNodeIDRef`: it is not the file asked about
    lines = [
        "./llvm/ADT/FoldingSet.h",
        "281:/// FoldingSetNodeIDRef - This class describes a reference to an interned",
        "286:class FoldingSetNodeIDRef {",
        "",
        "./llvm/Analysis/ScalarEvolutionExpressions.h",
        *(
            f"{n}:  SCEVExpr{n}(const FoldingSetNodeIDRef ID, const SCEV *op, Type *ty);"
            for n in range(60, 72)
        ),
    ]
    question = "how does scalarevolutionexpressions use folding set node id ref?"
    assert _best(lines, question) == lines[5:]


def test_files_the_question_names_alike_each_show_their_first_hit() -> None:
    # "test pb" names `test.pb.go` in every directory alike: show where each uses the name
    # rather than one of them whole
    lines: list[str] = []
    for k in range(6):
        lines += [
            f"./legacy/proto{k}/test.pb.go",
            *(f"{100 * n + k}:	return x.OneofUint32" for n in range(1, 5)),
            "",
        ]
    lines += ["./impl/other.go", "12:	OneofUint32 uint32", "14:	y := OneofUint32"]
    kept = _kept(lines, "how does test pb use oneof uint 32?")
    for k in range(6):
        assert f"./legacy/proto{k}/test.pb.go" in kept
        assert f"{100 + k}:	return x.OneofUint32" in kept


def test_a_minified_line_saying_the_question_s_words_often_does_not_outrank_the_definition() -> None:
    # a source map's `sourcesContent`: the question's words hundreds of times in one line
    bundle = '{"version":3,"sourcesContent":["' + "/** show the definition */ onTimeout(t); timeout " * 200
    lines = [
        "./dist/bundle.js.map",
        f"1:{bundle}",
        "",
        "./lib/client.js",
        "1384:    stream.on('timeout', onTimeout)",
        "1729:function onTimeout () {",
    ]
    assert _best(lines, "show the definition of on-timeout") == [lines[5]]


def test_a_name_after_a_keyword_mid_line_is_a_weaker_definition() -> None:
    # nothing starts with a keyword before `CURL_CR_CLIENT`: a comment's "of type" is the best sign
    lines = [
        f"./lib/c{k}.c:{k}:  result = Curl_creader_create(&r, data, &in, CURL_CR_CLIENT);" for k in range(6)
    ]
    lines.insert(3, "./lib/sendf.h:326: * Set the given reader, which needs to be of type CURL_CR_CLIENT,")
    lines.insert(5, "./lib/sendf.h:330:typedef enum { CURL_CR_NONE, CURL_CR_CLIENT } cr_phase;")
    assert _best(lines, "where is curl cr client defined?") == [lines[3]]
    # and a function bound to a property is named by its own name
    lines = [f"./lib/u{k}.js:{k}:  var t = n.mediaType(available)" for k in range(6)]
    lines.insert(2, "./index.js:80:Negotiator.prototype.mediaType = function mediaType(available) {")
    assert _best(lines, "show the definition of media type") == [lines[2]]


def test_a_file_named_after_the_searched_name_is_no_hint_when_a_hit_defines_it() -> None:
    lines = [
        "./src/builder/command.rs",
        '1775:    ///     .help_template("{name} ({version}) - {usage}")',
        "1802:    pub fn help_template(mut self, s: impl IntoResettable<StyledStr>) -> Self {",
        "",
        "./src/output/help_template.rs",
        "124:    /// For details about the template language see [`Command::help_template`].",
        "126:    /// [`Command::help_template`]: Command::help_template()",
    ]
    for k in range(6):
        lines += ["", f"./examples/e{k}.rs", f"{k + 70}:        .help_template(TEMPLATE)"]
    assert _best(lines, "show the definition of help template") == [lines[2]]


def test_rg_column_output_is_grep_output_and_its_column_is_no_text() -> None:
    # `rg --column`: `path:line:column:text`, the text indented as in its file
    lines = [f"./codec/use{k}.go:{k + 10}:9:	d := newEncDriver(h)" for k in range(12)]
    lines += [f"./codec/gen{k}.go:{k + 40}:5:    return newEncDriver(x)" for k in range(12)]
    lines.insert(7, "./codec/encode.go:23:6:func newEncDriver(h *BincHandle) encDriver {")
    assert grep_headings(lines) == list(range(len(lines)))
    assert _best(lines, "where is new-enc-driver defined?") == [lines[7]]


def test_a_listing_without_line_numbers_is_grep_output() -> None:
    # `rg` into a pipe, `grep -r`: `path:text`
    lines = [f"./codec/use{k}.go:	d := newEncDriver(h)" for k in range(12)]
    lines.insert(7, "./codec/encode.go:func newEncDriver(h *BincHandle) encDriver {")
    assert grep_headings(lines) == list(range(len(lines)))
    assert _best(lines, "where is new-enc-driver defined?") == [lines[7]]


def test_pytest_and_tsc_listings_are_not_grep_output() -> None:
    assert grep_headings([f"tests/test_a.py::test_{k} PASSED" for k in range(10)]) is None
    assert (
        grep_headings([f"src/a.ts({k},5): error TS2322: Type 'x' is not assignable" for k in range(10)])
        is None
    )


def test_a_log_led_by_logger_names_is_not_a_listing_without_line_numbers() -> None:
    # `app.main` is a logger, not a file: no extension one knows, no `/`
    log = [
        "app.main: starting",
        "app.db: connecting to db",
        "app.db: error: connection refused",
        "app.main: exit 1",
    ]
    assert grep_headings(log) is None


def test_a_match_is_kept_with_its_context_lines() -> None:
    # `rg -C1`: a context line goes with the nearest match of its run
    lines = [
        "./codec/encode.go",
        "22-// encDriver writes values.",
        "23:type encDriver interface {",
        "24-	encodeBool(b bool)",
        "--",
        "309-type Encoder struct {",
        "310:	e encDriver",
        "311-}",
    ]
    for k in range(8):
        lines += [
            "",
            f"./codec/gen{k}.go",
            f"{k + 9}-	// x",
            f"{k + 10}:	var d encDriver",
            f"{k + 11}-	_ = d",
        ]
    assert _best(lines, "where is enc-driver defined?") == lines[1:4]
    flat = [
        "./codec/encode.go-22-// encDriver writes values.",
        "./codec/encode.go:23:type encDriver interface {",
        "./codec/encode.go-24-	encodeBool(b bool)",
        "./codec/encode.go-25-}",
        "--",
        *(f"./codec/gen{k}.go:{k + 10}:	var d encDriver" for k in range(8)),
    ]
    assert _best(flat, "where is enc-driver defined?") == flat[:4]


def test_a_dash_number_dash_in_a_match_s_path_is_no_context_line_number() -> None:
    assert path_and_text("./lib/x86-64-linux/a.c:12:int x;", None) == ("./lib/x86-64-linux/a.c", "int x;")
    assert path_and_text("./lib/a.c-13-	x := m[a:b]", None) == ("./lib/a.c", "\tx := m[a:b]")


def test_a_stop_word_names_a_file_of_that_name() -> None:
    # "new" is no term, yet `new.ex` is the file asked about
    lines = [f"./logger/lib/l{k}.ex:{k}:      config :logger, :default_formatter," for k in range(6)]
    lines.insert(3, "./logger/lib/logger.ex:578:  def default_formatter(overrides \\\\ []) do")
    lines.append("./mix/lib/mix/tasks/new.ex:441:  #     config :logger, :default_formatter,")
    assert _best(lines, "how does new use default-formatter?") == [lines[-1]]


def test_a_path_with_spaces_is_a_path_when_it_has_a_directory_and_an_extension() -> None:
    mine = './Tests/HashTreeCollectionsTests/TreeSet Tests.swift:101:      RawCollider(1, "1"),'
    lines = [f"./Tests/T{k}.swift:{k}:      RawCollider({k}): 3," for k in range(8)]
    lines.insert(4, mine)
    assert grep_headings(lines) == list(range(len(lines)))
    assert _best(lines, "how does treeset tests use raw-collider?") == [mine]
    heading = ["./Tests/TreeSet Tests.swift", "101:      RawCollider(1),", "", "./Tests/B.swift", "3:y"]
    assert grep_headings(heading) == [None, 0, None, None, 3]


def test_a_file_name_ending_in_digits_is_named_by_its_letters() -> None:
    mine = ["./fix/RemoveInstanceImports4.scala", "42:    scopes.groupByNel(_.resolvers).toList.map {"]
    lines = [
        "./cats/syntax/list.scala",
        "70:  def groupByNel[B](f: A => B): SortedMap[B, NonEmptyList[A]] = {",
    ]
    for k in range(6):
        lines += ["", f"./tests/T{k}.scala", f"{k + 9}:    xs.groupByNel(f)"]
    lines += ["", *mine]
    assert _best(lines, "how does removeinstanceimports 4 use group by nel?") == [mine[1]]


def test_a_deadline_passing_on_the_last_hit_stops_before_the_passes_over_every_hit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = [f"src/mod{k}/file{k}.py:{k}:    value = compute(item_{k})" for k in range(40)]
    query = query_weights("where is compute defined")
    lh = line_hits(line_terms(lines), query)
    now = [0.0]
    deadline = Deadline(at=1.0, timeout_ms=1000, clock=lambda: now[0])
    base_name = grep._base_name

    def time_up_at_the_last_hit(path: str) -> str:
        if path == "src/mod39/file39.py":
            now[0] = 2.0
        return base_name(path)

    file_terms_calls: list[int] = []
    file_terms = grep._file_terms

    def counted(*args: Any) -> Any:
        file_terms_calls.append(1)
        return file_terms(*args)

    monkeypatch.setattr(grep, "_base_name", time_up_at_the_last_hit)
    monkeypatch.setattr(grep, "_file_terms", counted)
    with pytest.raises(EngineTimeout):
        grep_units(
            lines,
            grep_headings(lines) or [],
            lh,
            query,
            goal_hint="where is compute defined",
            deadline=deadline,
        )
    assert file_terms_calls == []
