// SPDX-License-Identifier: GPL-2.0
// bench/jit/chain.js: a chain of known JavaScript functions, JIT-compiled
// by V8: jit_main -> jit_a -> jit_b -> jit_c -> jit_leaf, where jit_leaf
// computes.  Run with --perf-basic-prof (names in /tmp/perf-PID.map) and
// --no-turbo-inlining (each function keeps its own frame).
//   node --perf-basic-prof --no-turbo-inlining chain.js [MS]
'use strict';

function jit_leaf(n) {
	let x = 0;

	for (let i = 0; i < n; i++)
		x = (x * 31 + i) % 1000003;
	return x;
}

function jit_c(n) { return jit_leaf(n) + 1; }
function jit_b(n) { return jit_c(n) + 1; }
function jit_a(n) { return jit_b(n) + 1; }

function jit_main(ms) {
	const end = Date.now() + ms;
	let s = 0;

	while (Date.now() < end)
		for (let k = 0; k < 100; k++)
			s += jit_a(5000);
	return s;
}

console.log(jit_main(Number(process.argv[2] || 3000)));
