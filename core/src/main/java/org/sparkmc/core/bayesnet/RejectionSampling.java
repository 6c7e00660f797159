package org.sparkmc.core.bayesnet;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * Rejection sampling for evidence (Henrion 1988, "logic sampling"): forward-sample the network and keep only the
 * samples that agree with the evidence (a sample is abandoned as soon as an observed variable disagrees). The
 * kept samples are exact draws from P(X | e); the acceptance rate estimates P(e).
 *
 * <p>Its statistic is a {@link WeightedCounts} with 0/1 weights (Σw = the number accepted), computed per block
 * from the stream ({@value #STREAM}, b) by the same block scaffolding as
 * {@link LikelihoodWeighting}.
 */
public final class RejectionSampling extends WeightedSampling {
    private static final long serialVersionUID = 1L;
    /** The stream purpose of rejection-sampling blocks. */
    public static final String STREAM = "bn-rejection";
    static final String METHOD = "rejection";

    private RejectionSampling(BayesNet net, Evidence evidence, int[] query) {
        super(net, evidence, query, METHOD, STREAM);
    }

    public static RejectionSampling of(BayesNet net, Evidence evidence, int... query) {
        return new RejectionSampling(net, evidence, query);
    }

    /** The statistic of {@code samples} draws from a given generator: accepted samples weigh 1, the rest 0. */
    @Override
    public WeightedCounts sample(UniformRandomProvider rng, long samples) {
        int slots = WeightedCounts.slots(net, query);
        double[] counts = new double[slots];
        long accepted = 0;
        int[] state = new int[net.size()];
        int[] observed = evidence.view();
        int[] order = net.orderView();
        for (long i = 0; i < samples; i++) {
            boolean keep = true;
            for (int v : order) {
                int s = ForwardSampler.draw(net.tableView(v), net.rowOffset(v, state), net.cardinality(v),
                    rng.nextDouble());
                if (observed[v] >= 0 && s != observed[v]) {
                    keep = false;
                    break;
                }
                state[v] = s;
            }
            if (keep) {
                accepted++;
                int slot = 0;
                for (int q : query) {
                    counts[slot + state[q]]++;
                    slot += net.cardinality(q);
                }
            }
        }
        return WeightedCounts.fromBlock(METHOD, net, query, samples, accepted, accepted, counts, counts.clone());
    }
}
