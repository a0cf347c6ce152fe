// SPDX-License-Identifier: GPL-2.0
// bench/java/Chain.java: a chain of known Java methods, JIT-compiled by
// HotSpot: jmain -> ja -> jb -> jc -> jleaf, where jleaf computes.  Run
// with -XX:+PreserveFramePointer (compiled code keeps %rbp chained),
// -XX:-Inline (each method keeps its own frame) and a perf map
// (-XX:+DumpPerfMapAtExit, or jcmd PID Compiler.perfmap):
//   java -XX:+PreserveFramePointer -XX:-Inline -XX:+UnlockDiagnosticVMOptions
//        -XX:+DumpPerfMapAtExit Chain [MS]
public class Chain {
	static int jleaf(int n) {
		int x = 0;

		for (int i = 0; i < n; i++)
			x = (x * 31 + i) % 1000003;
		return x;
	}

	static int jc(int n) { return jleaf(n) + 1; }
	static int jb(int n) { return jc(n) + 1; }
	static int ja(int n) { return jb(n) + 1; }

	static long jmain(long ms) {
		long end = System.currentTimeMillis() + ms;
		long s = 0;

		while (System.currentTimeMillis() < end)
			for (int k = 0; k < 100; k++)
				s += ja(5000);
		return s;
	}

	public static void main(String[] args) {
		System.out.println(jmain(args.length > 0 ? Long.parseLong(args[0]) : 3000));
	}
}
