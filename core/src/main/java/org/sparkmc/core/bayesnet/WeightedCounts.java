package org.sparkmc.core.bayesnet;

import java.io.Serializable;
import java.util.Arrays;
import org.sparkmc.core.InvalidInputException;

/**
 * The mergeable statistic of weighted sampling on a network (likelihood weighting; rejection sampling with 0/1
 * weights): the number of samples n, Σw, Σw² and, for each query variable's state s, Σw·1[x=s] and Σw²·1[x=s].
 *
 * <p>All sums are {@link ExactSum}s, so {@link #merge} is exactly associative and commutative: merging the
 * statistics of blocks in any grouping and order gives bit-identical results. The posterior of state s is the
 * self-normalised estimate p̂_s = Σw1_s/Σw, with the delta-method standard error
 * √(Σw²(1_s − p̂_s)²)/Σw = √(Σw²1_s(1 − 2p̂_s) + p̂_s²Σw²)/Σw (binomial √(p̂(1−p̂)/n_accepted) for 0/1 weights),
 * undefined (NaN) where p̂_s is 0 or 1: every weighted sample agrees, and the formula's 0 would claim certainty;
 * the weights' ESS is (Σw)²/Σw² (Kish). Immutable.
 */
public final class WeightedCounts implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String method;
    private final int[] query;
    /** offsets[q] is the first slot of query q's states; offsets[last] is the number of slots. */
    private final int[] offsets;
    private final long samples;
    private final ExactSum sumW;
    private final ExactSum sumW2;
    private final ExactSum[] sumWI;
    private final ExactSum[] sumW2I;

    private WeightedCounts(String method, int[] query, int[] offsets, long samples, ExactSum sumW, ExactSum sumW2,
            ExactSum[] sumWI, ExactSum[] sumW2I) {
        this.method = method;
        this.query = query;
        this.offsets = offsets;
        this.samples = samples;
        this.sumW = sumW;
        this.sumW2 = sumW2;
        this.sumWI = sumWI;
        this.sumW2I = sumW2I;
    }

    /** The merge identity for the given query variables. */
    static WeightedCounts empty(String method, BayesNet net, int[] query) {
        return fromBlock(method, net, query, 0, 0, 0, new double[slots(net, query)], new double[slots(net, query)]);
    }

    static int slots(BayesNet net, int[] query) {
        int n = 0;
        for (int q : query) {
            n += net.cardinality(q);
        }
        return n;
    }

    /** The statistic of one block from its plain double sums (slots ordered by query, then state). */
    static WeightedCounts fromBlock(String method, BayesNet net, int[] query, long samples, double sumW,
            double sumW2, double[] sumWI, double[] sumW2I) {
        int[] offsets = new int[query.length + 1];
        for (int q = 0; q < query.length; q++) {
            offsets[q + 1] = offsets[q] + net.cardinality(query[q]);
        }
        ExactSum[] a = new ExactSum[sumWI.length];
        ExactSum[] b = new ExactSum[sumW2I.length];
        for (int s = 0; s < a.length; s++) {
            a[s] = ExactSum.of(sumWI[s]);
            b[s] = ExactSum.of(sumW2I[s]);
        }
        return new WeightedCounts(method, query.clone(), offsets, samples, ExactSum.of(sumW), ExactSum.of(sumW2), a, b);
    }

    /**
     * The statistic of the union of both samples' draws; exactly associative and commutative.
     *
     * @throws IllegalArgumentException if the two were computed for different methods or query variables
     */
    public WeightedCounts merge(WeightedCounts other) {
        if (!method.equals(other.method) || !Arrays.equals(query, other.query)
                || !Arrays.equals(offsets, other.offsets)) {
            throw new IllegalArgumentException("cannot merge " + method + " statistics for query " + Arrays.toString(query)
                + " with " + other.method + " statistics for query " + Arrays.toString(other.query));
        }
        ExactSum w = sumW.copy();
        w.add(other.sumW);
        ExactSum w2 = sumW2.copy();
        w2.add(other.sumW2);
        ExactSum[] a = new ExactSum[sumWI.length];
        ExactSum[] b = new ExactSum[sumW2I.length];
        for (int s = 0; s < a.length; s++) {
            a[s] = sumWI[s].copy();
            a[s].add(other.sumWI[s]);
            b[s] = sumW2I[s].copy();
            b[s].add(other.sumW2I[s]);
        }
        return new WeightedCounts(method, query, offsets, Math.addExact(samples, other.samples), w, w2, a, b);
    }

    /** "likelihood-weighting" or "rejection". */
    public String method() {
        return method;
    }

    /** The query variables' indices (a copy). */
    public int[] queryVariables() {
        return query.clone();
    }

    /** Samples drawn (for rejection sampling, including the rejected ones). */
    public long samples() {
        return samples;
    }

    /** Σw (for rejection sampling: the number of accepted samples). */
    public double sumOfWeights() {
        return sumW.value();
    }

    public double sumOfSquaredWeights() {
        return sumW2.value();
    }

    /** Σw·1[X_q = s] for the q-th query variable. */
    public double weightedCount(int q, int s) {
        return sumWI[offsets[q] + s].value();
    }

    /** Σw²·1[X_q = s] for the q-th query variable. */
    public double weightedSquaredCount(int q, int s) {
        return sumW2I[offsets[q] + s].value();
    }

    /** Kish's effective sample size (Σw)²/Σw² (0 if every weight is 0). */
    public double ess() {
        double w = sumW.value();
        return w == 0 ? 0 : w * w / sumW2.value();
    }

    /**
     * The estimated posterior marginal of the q-th query variable.
     *
     * @throws InvalidInputException if every weight is zero: the evidence has probability zero (or is too rare for
     *     the number of samples)
     */
    public Marginal posterior(BayesNet net, int q) {
        double w = sumW.value();
        if (w == 0) {
            throw new InvalidInputException(samples == 0 ? "no samples were drawn"
                : "all " + samples + " " + method + " weights are zero: the evidence has probability zero under the"
                    + " network, or is too rare for " + samples + " samples");
        }
        double w2 = sumW2.value();
        int k = offsets[q + 1] - offsets[q];
        double[] p = new double[k];
        double[] se = new double[k];
        for (int s = 0; s < k; s++) {
            p[s] = sumWI[offsets[q] + s].value() / w;
            double v = sumW2I[offsets[q] + s].value() * (1 - 2 * p[s]) + p[s] * p[s] * w2;
            se[s] = p[s] == 0 || p[s] == 1 ? Double.NaN : Math.sqrt(Math.max(0, v)) / w;
        }
        int variable = query[q];
        return new Marginal(net.variable(variable), net.states(variable), p, se, ess(), samples);
    }

    /** The estimated posterior marginals of all query variables, in query order. */
    public Marginal[] posteriors(BayesNet net) {
        Marginal[] out = new Marginal[query.length];
        for (int q = 0; q < query.length; q++) {
            out[q] = posterior(net, q);
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof WeightedCounts c) || !method.equals(c.method) || !Arrays.equals(query, c.query)
                || samples != c.samples || Double.compare(sumW.value(), c.sumW.value()) != 0
                || Double.compare(sumW2.value(), c.sumW2.value()) != 0) {
            return false;
        }
        for (int s = 0; s < sumWI.length; s++) {
            if (Double.compare(sumWI[s].value(), c.sumWI[s].value()) != 0
                    || Double.compare(sumW2I[s].value(), c.sumW2I[s].value()) != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(samples) * 31 + Double.hashCode(sumW.value());
    }

    @Override
    public String toString() {
        return method + "[n=" + samples + ", Σw=" + sumW + ", Σw²=" + sumW2 + "]";
    }
}
