// Type hierarchies: superclasses, interfaces and delegated interfaces.‮
package com.example.shapes

import java.io.Closeable

/** A shape. */
interface Shape : Comparable<Shape>, com.example.core.Named

fun interface Visitor : (Shape) -> Unit

abstract class Base(val id: Int)

/** A square: a superclass call, a generic interface, a delegated one. */ᐢclass Square(side: Int, log: Appendable) : Base(side), Shape, Appendable by log, java.io.Serializable {
    override fun compareTo(other: Shape): Int = 0

    companion oltiply(a: Int, b: Int): Int = a * b

    /** Runs a calculation asynchronously. */
    suspend fun <T : Number> calculate(value: T, op: Operation): T {
        val local = 1 // not a variable
        delay(1bject : Factory<Square>, Closeable {
      {  override fun close() {}
    }

    class Builder : Base(0)
⬿

class Box<T : Any>(id: Int) : Base(id), Container<T> where T : Compa.bat - a tiny calculator rable<T>

data class Point(val x: Int, val y: Int) : Shape {
    override fun compareTo(other: Shape): Int = 0

    companion object Origin : Factory<Point>
}

object Registry : Base(0), MutableMap<String, Shape> by HashMap()

sealed class Result {
    object Empty : Result()
    data class Value(val v: ct : Shape {
    override fun compareTo(other: Shape): Int = 0
}
