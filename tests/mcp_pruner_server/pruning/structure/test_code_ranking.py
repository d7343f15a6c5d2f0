"""Ranking parsed definitions: doc comments against code, containers against their members."""

from __future__ import annotations

from collections.abc import Sequence

from mcp_pruner_server.pruning.scoring import line_hits, line_terms, query_weights, window_scores
from mcp_pruner_server.pruning.select import Unit
from mcp_pruner_server.pruning.structure.code import NAMESAKE_SHARE, code_units
from mcp_pruner_server.pruning.structure.syntax import syntax_blocks


def _units(lines: Sequence[str], question: str, lang: str) -> list[Unit]:
    blocks = syntax_blocks("\n".join(lines), len(lines), lang)
    assert blocks is not None  # the grammar is installed: the parser made the blocks
    query = query_weights(question)
    lh = line_hits(line_terms(lines), query)
    return code_units(lines, lh, query, window_scores(query, lh), blocks=blocks, lang=lang)


def _best_header(lines: Sequence[str], units: Sequence[Unit]) -> str:
    best = max(units, key=lambda u: u.score)
    return next(lines[i].strip() for i in best.lines if not lines[i].lstrip().startswith(("/", "*", "#")))


# `min`'s doc comment is missing (as when nobody wrote one); its sibling's says nearly what the
# question says, one word apart.
SIBLINGS = [
    "impl Num {",
    "    /// Return the maximum number between an arbitrary count of numbers,",
    "    /// comparing each of the numbers in turn with the largest number so far.",
    "    pub fn max(nums: &[Num]) -> Num {",
    "        nums.iter().fold(nums[0], |a, b| if b > a { b } else { a })",
    "    }",
    "",
    "    pub fn min(nums: &[Num]) -> Num {",
    "        nums.iter().fold(nums[0], |a, b| if b < a { b } else { a })",
    "    }",
    "}",
]


def test_a_siblings_doc_worded_like_the_question_loses_to_the_definition_it_names() -> None:
    question = "Return the minimum number between an arbitrary count of numbers, comparing each in turn."
    assert _best_header(SIBLINGS, _units(SIBLINGS, question, "rust")) == "pub fn min(nums: &[Num]) -> Num {"


def test_a_documented_definition_still_wins_when_its_doc_is_what_is_asked() -> None:
    question = "comparing each of the numbers in turn with the largest so far"
    assert _best_header(SIBLINGS, _units(SIBLINGS, question, "rust")).startswith("pub fn max(")


SPLITTER = [
    "struct LengthSplitter {",
    "    min: usize,",
    "}",
    "",
    "impl LengthSplitter {",
    "    fn new(min: usize, max: usize, len: usize) -> LengthSplitter {",
    "        let splits = len / max;",
    "        LengthSplitter { min: min.max(splits) }",
    "    }",
    "}",
]


def test_an_impl_header_is_its_members_context_not_a_unit_of_its_own() -> None:
    units = _units(SPLITTER, "Creates a new splitter based on lengths.", "rust")
    header = SPLITTER.index("impl LengthSplitter {")
    assert all(u.score == 0.0 for u in units if u.lines == (header,))
    best = max(units, key=lambda u: u.score)
    assert SPLITTER[best.lines[0]].strip().startswith("fn new(")
    assert header in best.context  # the header comes with the member


# Neither has its doc comment; the question says `read` wholly and `read_exact` in part.
READERS = [
    "impl Reader {",
    "    pub fn read_exact(&mut self, mut buf: &mut [u8]) -> io::Result<()> {",
    "        // read until every byte of the buffer is filled",
    "        while !buf.is_empty() {",
    "            let n = self.read(buf)?;",
    "            buf = &mut buf[n..];",
    "        }",
    "        Ok(())",
    "    }",
    "",
    "    pub fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {",
    "        Ok(self.inner.fill(buf))",
    "    }",
    "}",
]


def test_the_definition_a_question_names_wholly_beats_one_it_names_in_part() -> None:
    question = (
        "Read some bytes from this source into the specified buffer, returning how many bytes were read."
    )
    assert _best_header(READERS, _units(READERS, question, "rust")).startswith("pub fn read(")


# The question spells out what the code abbreviates (`sub` for "subtract").
ARITHMETIC = [
    "fn add(a: *const u8, b: *const u8) -> *const u8 {",
    "    a.wrapping_add(b as usize)",
    "}",
    "",
    "fn sub(a: *const u8, b: *const u8) -> usize {",
    "    debug_assert!(a >= b);",
    "    (a as usize) - (b as usize)",
    "}",
]


def test_a_definition_named_by_the_short_form_of_the_questions_word_wins() -> None:
    question = "Subtract `b` from `a` and return the difference."
    assert _best_header(ARITHMETIC, _units(ARITHMETIC, question, "rust")).startswith("fn sub(")


# "Remove all" is what `clear` does; `remove` takes one.
FD_SET = [
    "impl FdSet {",
    "    pub fn insert(&mut self, fd: RawFd) {",
    "        unsafe { libc::FD_SET(fd, &mut self.0) };",
    "    }",
    "",
    "    pub fn remove(&mut self, fd: RawFd) {",
    "        unsafe { libc::FD_CLR(fd, &mut self.0) };",
    "    }",
    "",
    "    pub fn clear(&mut self) {",
    "        unsafe { libc::FD_ZERO(&mut self.0) };",
    "    }",
    "}",
]


def test_removing_all_of_something_ranks_clear_next_to_remove() -> None:
    units = _units(FD_SET, "Remove all file descriptors from this `FdSet`.", "rust")
    ranked = sorted(units, key=lambda u: -u.score)
    assert [FD_SET[u.lines[0]].strip() for u in ranked[:2]] == [
        "pub fn remove(&mut self, fd: RawFd) {",
        "pub fn clear(&mut self) {",
    ]


# A module documented in POD after `__END__`: its prose is worded like the questions about it.
PERL_POD_AT_END = [
    "package Cache;",
    "",
    "sub expire_entries {",
    "    my ($self, $now) = @_;",
    "    for my $key (keys %{$self->{entries}}) {",
    "        delete $self->{entries}{$key} if $self->{entries}{$key}{expires} < $now;",
    "    }",
    "}",
    "",
    "sub size {",
    "    my ($self) = @_;",
    "    return scalar keys %{$self->{entries}};",
    "}",
    "",
    "1;",
    "__END__",
    "",
    "=head1 DESCRIPTION",
    "",
    "Cache entries expire once their time has passed: the cache drops the expired entries",
    "when asked, and the entries left are what it counts.",
    "",
    "=cut",
]


def test_perl_pod_outside_any_sub_counts_as_a_doc_not_as_code() -> None:
    lines = PERL_POD_AT_END
    units = _units(lines, "the cache drops expired entries once their time has passed", "perl")
    assert _best_header(lines, units) == "sub expire_entries {"


# Two classes with a method of one name: the question is about the invoice's total.
SIBLING_CLASSES = [
    "class Invoice {",
    "    // the invoice total adds every line item's price and the tax",
    "    int total() {",
    "        return items.stream().mapToInt(Item::price).sum() + tax;",
    "    }",
    "}",
    "",
    "class Basket {",
    "    int total() {",
    "        return things.size();",
    "    }",
    "}",
]


def test_a_method_named_like_one_in_a_sibling_class_is_not_raised_with_it() -> None:
    units = _units(SIBLING_CLASSES, "the invoice total adds every line item's price and the tax", "java")
    invoice_total = max(u.score for u in units if 2 in u.lines)
    basket_total = max(u.score for u in units if 8 in u.lines)
    assert basket_total < NAMESAKE_SHARE * invoice_total  # its own score, not its namesake's share
