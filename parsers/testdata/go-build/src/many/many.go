// Package many has more errors than the compiler reports (it stops at 10).
package many

var v1 int = "s1"
var v2 int = "s2"
var v3 int = "s3"
var v4 int = "s4"
var v5 int = "s5"
var v6 int = "s6"
var v7 int = "s7"
var v8 int = "s8"
var v9 int = "s9"
var v10 int = "s10"
var v11 int = "s11"
var v12 int = "s12"
