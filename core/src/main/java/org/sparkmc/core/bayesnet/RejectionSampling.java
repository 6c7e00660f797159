package org.sparkmc.core.bayesnet;

import java.io.Serializable;
import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;
import org.sparkmc.core.random.RandomStreams;

/**
 * Rejection sampling for evidence (Henrion 1988, "logic sampling"): forward-sample the network and keep only the
 * samples that agree with the evidence (a sample is abandoned as soon as an observed variable disagrees). The
 * kept samples are exact draws from P(X | e); the acceptance rate estimates P(e).
 *
 * <p>Its statistic is a {@link WeightedCounts} with 0/1 weights (Σw = the number accepted), computed per block
 * from the stream ({@value #STREAM}, b) exactly as {@link LikelihoodWeighting} does.
 */
public final class RejectionSampling implements Serializable {
    private static final long serialVersionUID = 1L;
    /** The stream purpose of rejection-sampling blocks. */
    public static final String STREAM = "bn-rejection";
    static final String METHOD = "rejection";

    private final BayesNet net;
    private final Evidence evidence;
    private final int[] query;

    private RejectionSampling(BayesNet net, Evidence evidence, int[] query) {
        this.net = net;
        this.evidence = evidence;
        this.query = query;
    }

    public static RejectionSampling of(BayesNet net, Evidence evidence, int... query) {
        return new RejectionSampling(Objects.requireNonNull(net, "net"),
            LikelihoodWeighting.checkEvidence(net, evidence), LikelihoodWeighting.checkQuery(net, query));
    }

    public WeightedCounts empty() {
        return WeightedCounts.empty(METHOD, net, query);
    }

    public WeightedCounts block(RandomStreams streams, long blockId, long samples) {
        return sample(streams.stream(STREAM, blockId), samples);
    }

    public WeightedCounts run(RandomStreams streams, BlockPlan plan) {
        WeightedCounts total = empty();
        for (long b = 0; b < plan.blocks(); b++) {
            total = total.merge(block(streams, b, plan.samplesIn(b)));
        }
        return total;
    }

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
