package org.sparkmc.core.bayesnet;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * Likelihood weighting (Fung &amp; Chang 1989; Shachter &amp; Peot 1989): forward-sample the unobserved variables in
 * topological order with the evidence variables clamped to their observed states, and weight each sample by
 * w = Π_{e ∈ E} P(x_e | parents) — importance sampling from the network mutilated by the evidence.
 *
 * <p>Block form for distributed runs: block b draws its samples from the stream
 * ({@value #STREAM}, b) — never a partition index — and returns a small {@link WeightedCounts}
 * (n, Σw, Σw², Σw·1[x=s], Σw²·1[x=s] per query state) whose {@link WeightedCounts#merge} is exactly associative,
 * so any grouping of blocks into partitions gives bit-identical estimates. Immutable and serializable.
 */
public final class LikelihoodWeighting extends WeightedSampling {
    private static final long serialVersionUID = 1L;
    /** The stream purpose of likelihood-weighting blocks. */
    public static final String STREAM = "bn-lw";
    static final String METHOD = "likelihood-weighting";

    private LikelihoodWeighting(BayesNet net, Evidence evidence, int[] query) {
        super(net, evidence, query, METHOD, STREAM);
    }

    /**
     * @param query indices of the variables whose posterior marginals are wanted (at least one)
     */
    public static LikelihoodWeighting of(BayesNet net, Evidence evidence, int... query) {
        return new LikelihoodWeighting(net, evidence, query);
    }

    /** The statistic of {@code samples} draws from a given generator. */
    @Override
    public WeightedCounts sample(UniformRandomProvider rng, long samples) {
        if (samples < 0) {
            throw new IllegalArgumentException("samples must be non-negative, is " + samples);
        }
        int slots = WeightedCounts.slots(net, query);
        double[] wi = new double[slots];
        double[] w2i = new double[slots];
        double sumW = 0;
        double sumW2 = 0;
        int[] state = new int[net.size()];
        for (long i = 0; i < samples; i++) {
            double w = weightedSample(rng, state);
            if (w == 0) {
                continue;
            }
            double w2 = w * w;
            sumW += w;
            sumW2 += w2;
            int slot = 0;
            for (int q : query) {
                int s = slot + state[q];
                wi[s] += w;
                w2i[s] += w2;
                slot += net.cardinality(q);
            }
        }
        return WeightedCounts.fromBlock(METHOD, net, query, samples, sumW, sumW2, wi, w2i);
    }

    /** Fills {@code state} with one sample (evidence clamped) and returns its likelihood weight. */
    public double weightedSample(UniformRandomProvider rng, int[] state) {
        int[] observed = evidence.view();
        double w = 1;
        for (int v : net.orderView()) {
            double[] table = net.tableView(v);
            int offset = net.rowOffset(v, state);
            int e = observed[v];
            if (e >= 0) {
                state[v] = e;
                w *= table[offset + e];
            } else {
                state[v] = ForwardSampler.draw(table, offset, net.cardinality(v), rng.nextDouble());
            }
        }
        return w;
    }
}
