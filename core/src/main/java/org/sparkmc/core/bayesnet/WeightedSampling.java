package org.sparkmc.core.bayesnet;

import java.io.Serializable;
import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;
import org.sparkmc.core.random.RandomStreams;

/**
 * What {@link LikelihoodWeighting} and {@link RejectionSampling} share: a network, evidence and query variables,
 * and block-wise sampling for distributed runs. {@link #block(RandomStreams, long, long)} draws the samples of
 * block b from the stream (purpose, b) — the purpose is the subclass's, never a partition index — and returns a
 * small {@link WeightedCounts} whose {@link WeightedCounts#merge} is exactly associative, so any grouping of
 * blocks into partitions gives bit-identical estimates. Each subclass says in {@link #sample} how one generator's
 * samples are drawn and weighted. Immutable and serializable.
 *
 * <p>Package-private on purpose. Were it public, the method references {@code lw::block} and {@code rs::block}
 * in another package (the Spark {@code bn} job ships one as a serializable lambda) would both name this class's
 * {@code block} as their implementation, and javac's generated {@code $deserializeLambda$} cannot tell the two
 * apart: the executor gets a ClassCastException. With this class inaccessible there, javac compiles each
 * reference into its own lambda.
 */
abstract sealed class WeightedSampling implements Serializable permits LikelihoodWeighting, RejectionSampling {
    private static final long serialVersionUID = 1L;

    final BayesNet net;
    final Evidence evidence;
    final int[] query;
    private final String method;
    private final String stream;

    WeightedSampling(BayesNet net, Evidence evidence, int[] query, String method, String stream) {
        this.net = Objects.requireNonNull(net, "net");
        this.evidence = checkEvidence(net, evidence);
        this.query = checkQuery(net, query);
        this.method = method;
        this.stream = stream;
    }

    static Evidence checkEvidence(BayesNet net, Evidence evidence) {
        Objects.requireNonNull(evidence, "evidence");
        evidence.requireNetwork(net);
        return evidence;
    }

    /** A copy of {@code query}, checked: at least one variable, each an index of {@code net}. */
    static int[] checkQuery(BayesNet net, int[] query) {
        if (query == null || query.length == 0) {
            throw new IllegalArgumentException("at least one query variable is needed");
        }
        for (int q : query) {
            if (q < 0 || q >= net.size()) {
                throw new IllegalArgumentException("query variable index " + q + " is out of range");
            }
        }
        return query.clone();
    }

    /** The merge identity. */
    public WeightedCounts empty() {
        return WeightedCounts.empty(method, net, query);
    }

    /** The statistic of block {@code blockId}: {@code samples} draws from the stream (purpose, blockId). */
    public WeightedCounts block(RandomStreams streams, long blockId, long samples) {
        return sample(streams.stream(stream, blockId), samples);
    }

    /** All blocks of a plan, drawn one after the other and merged: what a distributed run computes. */
    public WeightedCounts run(RandomStreams streams, BlockPlan plan) {
        WeightedCounts total = empty();
        for (long b = 0; b < plan.blocks(); b++) {
            total = total.merge(block(streams, b, plan.samplesIn(b)));
        }
        return total;
    }

    /** The statistic of {@code samples} draws from a given generator. */
    public abstract WeightedCounts sample(UniformRandomProvider rng, long samples);

    /** The query variables' indices (a copy). */
    public int[] queryVariables() {
        return query.clone();
    }

    public BayesNet network() {
        return net;
    }

    public Evidence evidence() {
        return evidence;
    }
}
