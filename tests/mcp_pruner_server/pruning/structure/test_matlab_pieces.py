from __future__ import annotations

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.scoring import LEAD_WEIGHT, line_hits, line_terms, query_weights
from mcp_pruner_server.pruning.structure.matlab_blocks import matlab_blocks
from mcp_pruner_server.pruning.structure.matlab_docs import help_led, listed_rows
from mcp_pruner_server.pruning.types import PruneOptions


def _long_main(paragraphs: int = 13) -> list[str]:
    """A main function of `paragraphs` paragraphs of 8 statements (one an `if` block) and its help."""
    lines = ["function out = solve(op, dom)", "%SOLVE   Solve the operator equation on the domain.", ""]
    for k in range(paragraphs):
        lines += [f"    % step {k}"]
        lines += [f"    x{k}_{j} = op(dom, {k}, {j});" for j in range(3)]
        lines += [
            f"    if x{k}_0 > 0",
            "",
            f"        x{k}_1 = -x{k}_1;",
            "    end",
            f"    out{k} = x{k}_2;",
            "",
        ]
    return [*lines, "end"]


def _helper(name: str, statement: str) -> list[str]:
    return ["", f"function y = {name}(x)", *[f"    y = {statement}({k}, x);" for k in range(6)], "end"]


def _pruned(lines: list[str], question: str) -> set[int]:
    res = prune("\n".join(lines), question, "code", PruneOptions(path="solve.m"), "t")
    return {i for a in res.annotations for i in range(a.original_start_line - 1, a.original_end_line)}


def test_a_long_function_is_its_head_and_its_paragraphs_never_cut_inside_a_block() -> None:
    lines = _long_main() + _helper("scale", "factor")
    blocks = matlab_blocks(lines)
    main, head, *paragraphs = [b for b in blocks if b.name != "scale"]
    assert main.container
    assert (head.name, head.start, head.end) == ("solve", 0, 2)  # its signature and its help
    assert all(b.parent == 0 and b.name is None for b in paragraphs)
    rows = [i for b in paragraphs for i in range(b.start, b.end)]
    assert rows == sorted(set(rows))  # no row in two paragraphs
    assert {i for i in range(3, len(lines) - 8) if lines[i].strip()} <= set(rows)
    for b in paragraphs:
        opened = sum(lines[i].strip().startswith("if ") for i in range(b.start, b.end))
        closed = sum(lines[i].strip() == "end" for i in range(b.start, b.end))
        assert opened == closed or b.end == main.end  # the function's own `end` closes the last one


def test_a_short_function_stays_one_block() -> None:
    lines = _long_main(paragraphs=2) + _helper("scale", "factor")
    assert [(b.name, b.container) for b in matlab_blocks(lines)] == [("solve", False), ("scale", False)]


def test_functions_nested_in_a_function_are_blocks_of_their_own() -> None:
    lines = [
        "function plotAll(h)",
        "    draw();",
        "    function draw()",
        "        line(h);",
        "    end",
        "    function y = scaled(x)",
        "        y = 2 * x;",
        "    end",
        "end",
    ]
    blocks = matlab_blocks(lines)
    assert blocks[0].container
    named = [(b.name, b.header, b.end, b.parent) for b in blocks[1:] if b.name not in (None, "plotAll")]
    assert named == [("draw", 2, 5, 0), ("scaled", 5, 8, 0)]


def test_a_question_about_a_helper_keeps_it_and_not_a_long_main_function_whole() -> None:
    # the main function uses the helper's words too: as one unit it won and filled the budget
    lines = _long_main(paragraphs=14)
    lines[4:4] = [
        f"    w{k} = nodes(domain, tolerance{k}); % quadrature weights to the tolerance" for k in range(6)
    ]
    lines += _helper("gaussWeights", "quadrature")
    question = "Compute the quadrature weights for the tolerance on the domain"
    pruned = _pruned(lines, question)
    helper = lines.index("function y = gaussWeights(x)")
    assert not pruned & set(range(helper, helper + 8))
    assert len(pruned) > len(lines) * 0.7


def test_a_matlab_functions_help_counts_as_a_doc_does() -> None:
    # the `%` lines after the signature are MATLAB's doc comment: `LEAD_WEIGHT` a line, as a
    # doc above a function in any language, the code below them fully
    lines = ["function y = order(x)", "% Sorts the list.", "    y = sort(x, 'list');", "end"]
    query = query_weights("sorts the list")
    lh = line_hits(line_terms(lines), query)
    block = matlab_blocks(lines)[0]
    doc = help_led(lines, lh, block, block.end)
    assert doc.hits["list"] == 1 + LEAD_WEIGHT
    assert doc.length == lh.span(0, 4).length


def test_a_question_naming_a_gui_control_finds_its_callback() -> None:
    # GUIDE writes the same help in every callback; the one asked about is named for its control
    lines = ["function varargout = keypad(varargin)", "    gui_main(varargin{:});", "end", ""]
    for k in range(1, 7):
        lines += [
            f"% --- Executes on button press in button{k}.",
            f"function button{k}_Callback(hObject, ev, h)",
        ]
        if k != 4:
            lines += [
                f"% hObject    handle to button{k} (see GCBO)",
                "% eventdata  reserved - to be defined in a future version of MATLAB",
                "% handles    structure with handles and user data (see GUIDATA)",
            ]
        lines += [f"    press(h, {k}, keys{j});" for j in range(5)]
        lines += ["end", ""]
    question = (
        "hObject    handle to button4 (see GCBO) eventdata  reserved - to be defined in a future version"
        " of MATLAB handles    structure with handles and user data (see GUIDATA)"
    )
    pruned = _pruned(lines, question)
    target = lines.index("function button4_Callback(hObject, ev, h)")
    assert not pruned & set(range(target, target + 7))


def test_a_methods_arguments_block_closes_with_its_own_end() -> None:
    lines = [
        "classdef Filter",
        "    methods",
        "        function y = apply(obj, x, opts)",
        "            arguments",
        "                obj",
        "                x double",
        "                opts.n (1,1) double = 3",
        "            end",
        "            y = x * opts.n;",
        "        end",
        "    end",
        "    properties",
        "        arguments = {}",
        "    end",
        "    methods (Access = private)",
        "        function z = reset(obj)",
        "            z = obj;",
        "        end",
        "    end",
        "end",
    ]
    assert [(b.name, b.header, b.end) for b in matlab_blocks(lines)] == [("apply", 2, 10), ("reset", 15, 18)]


def test_a_signature_continued_on_the_next_line_still_names_its_function() -> None:
    lines = ["function [funs, ends] = ...", "    splitPieces(op, dom) % no split", "funs = op(dom);", "end"]
    assert [(b.name, b.sig_end) for b in matlab_blocks(lines)] == [("splitPieces", 2)]


def test_a_class_helps_list_of_methods_documents_each_method() -> None:
    lines = [
        "%Robot  A robot arm class",
        "%",
        "% Conversion methods::",
        "%  todegrees     convert joint angles to degrees",
        "%  Robot.toradians  convert joint angles to radians",
        "%  x = toradians(q)",
        "classdef Robot",
        "    methods",
        "        function q = toradians(r, q)",
        "        %Robot.toradians  Convert to radians",
        "            q = q * pi / 180;",
        "        end",
        "    end",
        "end",
    ]
    assert listed_rows(lines, matlab_blocks(lines)) == {"toradians": [4]}
    query = query_weights("convert joint angles to radians")
    lh = line_hits(line_terms(lines), query)
    method = matlab_blocks(lines)[0]
    doc = help_led(lines, lh, method, method.end, [4])
    assert doc.hits["joint"] == LEAD_WEIGHT  # the list's line, a doc's weight
    assert "joint" not in help_led(lines, lh, method, method.end).hits


def test_other_methods_help_weighs_as_a_doc_not_as_code() -> None:
    # the help after each signature is its doc (`LEAD_WEIGHT` a line, `language_hooks`): at full
    # weight a neighbour's help worded like the question outscored the method doing the job
    lines = ["classdef Angles", "    methods (Static)"]
    for name, help_text in [
        ("angdiff", "%ANGDIFF  Difference of two angles, wrapped to the range of pi"),
        ("angvec", "%ANGVEC  Rotation angle and vector of the range of a rotation"),
        ("angspan", "%ANGSPAN  Range spanned by the angles, an angle range"),
    ]:
        lines += [
            f"        function d = {name}(a, b)",
            f"        {help_text}",
            "        % the angle range of the input",
        ]
        lines += [*[f"            d{k} = a - b * {k};" for k in range(4)], "        end", ""]
    lines += ["        function a = principal(a)"]
    lines += [f"            a = mod(a + pi, 2 * pi) - pi; % angle {k}" for k in range(4)]
    lines += ["        end", "    end", "end"]
    res = prune(
        "\n".join(lines),
        "Wrap an angle to the range minus pi to pi",
        "code",
        PruneOptions(path="Angles.m"),
        "t",
    )
    pruned = {i for a in res.annotations for i in range(a.original_start_line - 1, a.original_end_line)}
    target = lines.index("        function a = principal(a)")
    assert not pruned & set(range(target, target + 6))


def test_a_function_commented_out_in_a_block_comment_is_none_in_a_file_without_ends() -> None:
    lines = [
        "function y = first(x)",
        "y = 2 * x;",
        "%{",
        "function y = old(x)",
        "y = x;",
        "%}",
        "",
        "function y = second(x)",
        "y = 3 * x;",
    ]
    assert [(b.name, b.header, b.end) for b in matlab_blocks(lines)] == [("first", 0, 2), ("second", 7, 9)]
