package org.sparkmc.core.rjmcmc;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;

/**
 * Test helper: checks that a {@link Bijection} h(x, u) = (x', u') makes a valid reversible pair of moves (Green
 * 1995, §3.3), at random points of its domain:
 * <ol>
 * <li>dimension matching: dim(x) + dim(u) = dim(x') + dim(u'), and the arrays have those lengths;</li>
 * <li>h⁻¹(h(a)) = a and h(h⁻¹(b)) = b for b = h(a) (relative error ≤ 1e-9);</li>
 * <li>the claimed log |det ∂h/∂(x,u)| equals that of a central-difference Jacobian (|error| ≤ 1e-5), and so does
 * the reverse move's −log |det| at h⁻¹(b) against the finite-difference Jacobian of h⁻¹ at b.</li>
 * </ol>
 * Central differences with step 1e-6·max(|a_i|, 0.01) have truncation error ~1e-12 relative for these smooth maps
 * and round-off ~1e-10, far below the 1e-5 tolerance; a wrong constant factor in |det J| (the usual mistake, e.g.
 * 1 instead of 2) is off by |log 2| ≈ 0.69.
 */
final class ReversiblePairChecker {
    private static final double ROUND_TRIP_TOLERANCE = 1e-9;
    private static final double LOG_DET_TOLERANCE = 1e-5;

    private ReversiblePairChecker() {
    }

    /** The failures found at {@code points} random domain points (empty if the pair is valid). */
    static List<String> failures(Bijection h, int points, long seed) {
        List<String> out = new ArrayList<>();
        int in = h.xDimension() + h.uDimension();
        int outDim = h.xPrimeDimension() + h.uPrimeDimension();
        if (in != outDim) {
            out.add(h.name() + ": dim(x) + dim(u) = " + in + " but dim(x') + dim(u') = " + outDim);
            return out;
        }
        Rng rng = new RandomStreams(seed).rng("reversible-pair-check", h.name().hashCode());
        for (int p = 0; p < points && out.size() < 5; p++) {
            double[] a = h.randomDomainPoint(rng);
            if (a.length != in) {
                out.add(h.name() + ": domain point has length " + a.length + ", expected " + in);
                return out;
            }
            double[] b = h.forward(a);
            if (b.length != outDim) {
                out.add(h.name() + ": h(x,u) has length " + b.length + ", expected " + outDim);
                return out;
            }
            double[] back = h.inverse(b);
            if (back.length != in) {
                out.add(h.name() + ": h⁻¹ has length " + back.length + ", expected " + in);
                return out;
            }
            if (!close(a, back)) {
                out.add(h.name() + ": h⁻¹(h(a)) ≠ a at a = " + java.util.Arrays.toString(a) + ": "
                        + java.util.Arrays.toString(back));
            }
            double[] again = h.forward(back);
            if (!close(b, again)) {
                out.add(h.name() + ": h(h⁻¹(b)) ≠ b at b = " + java.util.Arrays.toString(b));
            }
            double claimed = h.logAbsDetJacobian(a);
            double numeric = logAbsDet(jacobian(h::forward, a));
            if (!(Math.abs(claimed - numeric) <= LOG_DET_TOLERANCE)) {
                out.add(String.format("%s: log|det J| claimed %.8f, finite differences %.8f at a = %s", h.name(),
                        claimed, numeric, java.util.Arrays.toString(a)));
            }
            double reverseClaimed = -h.logAbsDetJacobian(back);
            double reverseNumeric = logAbsDet(jacobian(h::inverse, b));
            if (!(Math.abs(reverseClaimed - reverseNumeric) <= LOG_DET_TOLERANCE)) {
                out.add(String.format("%s: reverse log|det J| claimed %.8f, finite differences %.8f at b = %s",
                        h.name(), reverseClaimed, reverseNumeric, java.util.Arrays.toString(b)));
            }
        }
        return out;
    }

    /** Asserts {@link #failures} is empty for 200 random points. */
    static void assertValid(Bijection h, long seed) {
        List<String> f = failures(h, 200, seed);
        if (!f.isEmpty()) {
            throw new AssertionError("not a valid reversible pair:\n  " + String.join("\n  ", f));
        }
    }

    private static boolean close(double[] expected, double[] actual) {
        for (int i = 0; i < expected.length; i++) {
            if (!(Math.abs(expected[i] - actual[i]) <= ROUND_TRIP_TOLERANCE * (1 + Math.abs(expected[i])))) {
                return false;
            }
        }
        return true;
    }

    static double[][] jacobian(java.util.function.UnaryOperator<double[]> f, double[] a) {
        int n = a.length;
        double[][] j = new double[n][n];
        for (int c = 0; c < n; c++) {
            double step = 1e-6 * Math.max(Math.abs(a[c]), 0.01);
            double[] plus = a.clone();
            double[] minus = a.clone();
            plus[c] += step;
            minus[c] -= step;
            double[] fp = f.apply(plus);
            double[] fm = f.apply(minus);
            for (int r = 0; r < n; r++) {
                j[r][c] = (fp[r] - fm[r]) / (plus[c] - minus[c]);
            }
        }
        return j;
    }

    /** log |det A| by LU decomposition with partial pivoting (−∞ if singular). */
    static double logAbsDet(double[][] matrix) {
        int n = matrix.length;
        double[][] a = new double[n][];
        for (int i = 0; i < n; i++) {
            a[i] = matrix[i].clone();
        }
        double sum = 0;
        for (int c = 0; c < n; c++) {
            int pivot = c;
            for (int r = c + 1; r < n; r++) {
                if (Math.abs(a[r][c]) > Math.abs(a[pivot][c])) {
                    pivot = r;
                }
            }
            if (a[pivot][c] == 0) {
                return Double.NEGATIVE_INFINITY;
            }
            double[] t = a[c];
            a[c] = a[pivot];
            a[pivot] = t;
            sum += Math.log(Math.abs(a[c][c]));
            for (int r = c + 1; r < n; r++) {
                double f = a[r][c] / a[c][c];
                for (int k = c; k < n; k++) {
                    a[r][k] -= f * a[c][k];
                }
            }
        }
        return sum;
    }
}
