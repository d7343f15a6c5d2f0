"""What a grep hit's line defines: keyword definitions after modifiers, in any language; typed
definitions in the C family only; nothing in the middle of a minified line."""

from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.structure.grep_defs import defined_name


@pytest.mark.parametrize(
    ("text", "path", "name"),
    [
        ("enum class MemProt {", "a.h", "MemProt"),
        ("typedef struct foo_bar {", "a.h", "foo_bar"),
        ("pub trait ColorMap {", "a.rs", "ColorMap"),
        ("pub(crate) fn foo_bar(x: u8)", "a.rs", "foo_bar"),
        ('pub unsafe extern "C" fn foo_bar()', "a.rs", "foo_bar"),
        ("ENUM!{enum D3D_SHADER_VARIABLE_TYPE {", "a.rs", "D3D_SHADER_VARIABLE_TYPE"),
        ("func (r *T) Foo(x int) {", "a.go", "Foo"),
        ("export const fooBar = (a) => {", "a.ts", "fooBar"),
        ("  onClose: function (e) {", "a.js", "onClose"),
        ("export default class Foo extends Bar {", "a.js", "Foo"),
        ("  public static function fooBar($x)", "a.php", "fooBar"),
        ("  def foo_bar(x) do", "a.ex", "foo_bar"),
        ("local function foo_bar(x)", "a.lua", "foo_bar"),
        ("function M.foo_bar(x)", "a.lua", "foo_bar"),
        ("  def fooBar(x: Int): Int =", "a.scala", "fooBar"),
        ("  override fun <T> List<T>.fooBar(x: Int) {", "a.kt", "fooBar"),
        ("  func fooBar(x: Int) {", "a.swift", "fooBar"),
        ("def self.parse_options(x)", "a.rb", "parse_options"),
        ("  async def foo(self):", "a.py", "foo"),
        ("#define FOO_BAR(x) (x)", "a.h", "FOO_BAR"),
        ("log_step() {", "a.sh", "log_step"),
        ("static int foo_bar(void)", "a.c", "foo_bar"),
        ("int foo_bar(int x);", "a.h", "foo_bar"),
        ("void Foo::bar(int x) {", "a.cpp", "bar"),
        ("  public int Foo(int x) {", "a.cs", "Foo"),
        ("  public async Task<List<int>> FooAsync(int x)", "a.cs", "FooAsync"),
        ("  @Override public void onClose(Foo x) {", "A.java", "onClose"),
        ("[Obsolete] public class Foo", "a.cs", "Foo"),
        ("@interface FooView : UIView", "a.m", "FooView"),
        ("data class FooBar(val x: Int)", "a.kt", "FooBar"),
        ("newtype FooBar = FooBar Int", "a.hs", "FooBar"),
        ("fooBar :: Int -> Int", "a.hs", "fooBar"),
        ("CREATE TABLE IF NOT EXISTS public.foo_bar (", "a.sql", "foo_bar"),
        ("function Get-TargetResource", "a.psm1", "Get-TargetResource"),
        ("Function global:Set-Foo([int] $x) {", "a.ps1", "Set-Foo"),
        ("filter Out-Thing {", "a.ps1", "Out-Thing"),
        ("Class Dog : Animal {", "a.ps1", "Dog"),
    ],
)
def test_a_definition_names_what_it_defines(text: str, path: str, name: str) -> None:
    assert defined_name(text, path) == name


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("impl ColorMap for BiLevel {", "a.rs"),  # the trait's and the type's definitions are elsewhere
        ("  public Foo(int x) {", "a.cs"),  # a constructor: `class Foo` defines Foo
        ("Foo::Foo(int x) : y(x) {", "a.cpp"),
        ("  return foo_bar(x);", "a.c"),
        (" * Returns foo_bar(x) for", "a.c"),
        ("  x = foo_bar(x);", "a.c"),
        ("  throw new FooException(x);", "A.java"),
        ("  else if (x) {", "a.c"),
        ("  Use the foo_bar(x) call", "a.md"),  # a name after a word is a type only in the C family
        ("configure()", "a.py"),  # `name()` is a shell function only in a shell script
        ('{"version":3,"sourcesContent":["function onTimeout () {"]}', "a.js.map"),
    ],
)
def test_a_call_a_use_or_a_minified_line_defines_nothing(text: str, path: str) -> None:
    assert defined_name(text, path) is None


def test_only_a_line_s_head_is_read_for_a_definition() -> None:
    # a minified line is never scanned whole: its definitions, if any, are in its first characters
    assert defined_name(" " * 500 + "def foo(x):", "a.py") is None
    assert defined_name("export const fooBar = (a) => {" + " " * 10_000, "a.ts") == "fooBar"
