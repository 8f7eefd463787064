"""Scala, Haskell and Zig through MCP (issue 69), end to end: the real binary
indexes a temporary project into the real OpenSearch (own prefix and config
dir), `serve start` serves it, and the Python MCP SDK asks.

* A definition of each is found by its name, narrowed by the language's
  name, extension or alias (`scala`, `hs`, `ziglang`).
* A Scala trait's subtypes (`extends`/`with`) come from find_references.
* A Haskell instance makes its class a supertype of the instance's type.
* Reads of named values are found with `kind: "read"`: a Zig constant, a
  Scala `final val`, a Ruby constant, a C macro, an Elixir attribute.
"""

from __future__ import annotations

import pytest
from conftest import call_text as call, serve_files

PREFIX = "langs69"

SHAPES_SCALA = """package shapes

/** A shape with an area. */
trait Shape {
  def area: Double
}

/** A circle, by its radius. */
final case class Circle(radius: Double) extends Shape with Serializable {
  def area: Double = math.Pi * radius * radius
}

class Square(side: Double) extends Shape {
  def area: Double = side * side
}

object Shapes {
  final val maxSides = 12
  def largest(shapes: Seq[Shape]): Shape = shapes.maxBy(_.area)
  def tooMany(n: Int): Boolean = n > maxSides
}
"""

GEOMETRY_HS = """module Geometry (Polygon (..), perimeter) where

-- | A closed polygon, by its side lengths.
data Polygon = Polygon [Double]

class Measured a where
  measure :: a -> Double

instance Measured Polygon where
  measure = perimeter

-- | The sum of a polygon's sides.
perimeter :: Polygon -> Double
perimeter (Polygon sides) = sum sides
"""

RING_ZIG = """const std = @import("std");

/// The number of slots in a ring.
pub const ring_capacity: usize = 64;

/// A fixed ring buffer of bytes.
pub const RingBuffer = struct {
    data: [ring_capacity]u8 = undefined,
    head: usize = 0,

    /// Push one byte, overwriting the oldest.
    pub fn pushByte(self: *RingBuffer, b: u8) void {
        self.data[self.head % ring_capacity] = b;
        self.head += 1;
    }
};
"""

LIMITS_RB = "MAX_RETRIES = 5\n\ndef retry_limit\n  MAX_RETRIES * 2\nend\n"

QUEUE_C = "#define QUEUE_DEPTH 32\n\nint queue_full(int n) {\n    return n >= QUEUE_DEPTH;\n}\n"

TIMER_EX = "defmodule Timer do\n  @tick_ms 250\n\n  def next(t), do: t + @tick_ms\nend\n"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    files = {
        "src/shapes/Shapes.scala": SHAPES_SCALA,
        "src/Geometry.hs": GEOMETRY_HS,
        "src/ring.zig": RING_ZIG,
        "lib/limits.rb": LIMITS_RB,
        "c/queue.c": QUEUE_C,
        "lib/timer.ex": TIMER_EX,
    }
    with serve_files(tmp_path_factory.mktemp("langs69"), PREFIX, "proj", files) as gw:
        yield gw.url


def names(answer: dict) -> list[tuple[str, str]]:
    return [(r["path"], m["name"]) for r in answer["results"] for m in r.get("matches", [])]


@pytest.mark.anyio
@pytest.mark.parametrize(
    "tool,query,language,expected",
    [
        ("search_by_code_functions", "largest", "scala", ("src/shapes/Shapes.scala", "largest")),
        ("search_by_code_classes", "Circle", "Scala", ("src/shapes/Shapes.scala", "Circle")),
        ("search_by_code_functions", "perimeter", "hs", ("src/Geometry.hs", "perimeter")),
        ("search_by_code_functions", "pushByte", "ziglang", ("src/ring.zig", "pushByte")),
        ("search_by_code_classes", "RingBuffer", "zig", ("src/ring.zig", "RingBuffer")),
    ],
)
async def test_a_definition_is_found_by_name_in_its_language(served, tool, query, language, expected):
    _, answer = await call(served, tool, {"query": query, "language": language, "target": "proj"})
    assert names(answer)[:1] == [expected], answer


@pytest.mark.anyio
async def test_a_scala_trait_has_its_subtypes(served):
    args = {"query": "Shape", "direction": "subtypes", "target": "proj"}
    _, answer = await call(served, "find_references", args)
    found = {(r["path"], t["name"]) for r in answer["results"] for t in r["types"]}
    assert found == {("src/shapes/Shapes.scala", "Circle"), ("src/shapes/Shapes.scala", "Square")}, answer


@pytest.mark.anyio
async def test_a_haskell_instance_makes_its_class_a_supertype(served):
    args = {"query": "Measured", "direction": "subtypes", "target": "proj"}
    _, answer = await call(served, "find_references", args)
    found = {(r["path"], t["name"]) for r in answer["results"] for t in r["types"]}
    assert ("src/Geometry.hs", "Polygon") in found, answer


@pytest.mark.anyio
@pytest.mark.parametrize(
    "query,path,line",
    [
        ("ring_capacity", "src/ring.zig", 13),
        ("maxSides", "src/shapes/Shapes.scala", 20),
        ("MAX_RETRIES", "lib/limits.rb", 4),
        ("QUEUE_DEPTH", "c/queue.c", 4),
        ("tick_ms", "lib/timer.ex", 4),
    ],
)
async def test_reads_of_named_values_are_found(served, query, path, line):
    _, answer = await call(served, "find_references", {"query": query, "kind": "read", "target": "proj"})
    uses = [(r["path"], u["line"]) for r in answer["results"] for u in r["references"]]
    assert (path, line) in uses, answer
    assert all(u["kind"] == "read" for r in answer["results"] for u in r["references"]), answer
