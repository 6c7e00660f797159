package org.sparkmc.core.bayesnet;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.RandomStreams;

/**
 * Gibbs sampling on a Bayesian network (Pearl 1987; Geman &amp; Geman 1984): sweep the unobserved variables in
 * topological order, drawing each from its full conditional given its Markov blanket,
 * P(x_v | mb(v)) ∝ P(x_v | pa(v)) · Π_{c ∈ ch(v)} P(x_c | pa(c)).
 *
 * <p>Chain c runs on the stream ({@value #STREAM}, c) and starts from a likelihood-weighting draw of positive
 * weight, so several chains give draws for R-hat. With deterministic table entries the chain may be reducible;
 * compare chains (or use likelihood weighting) before trusting it. Immutable and serializable.
 */
public final class GibbsSampling implements Serializable {
    private static final long serialVersionUID = 1L;
    /** The stream purpose of Gibbs chains. */
    public static final String STREAM = "bn-gibbs";
    private static final int INITIAL_TRIES = 100_000;
    private static final int[] NO_CHILDREN = {};

    private final BayesNet net;
    private final Evidence evidence;
    private final int[] query;
    private final int[] free;
    /** For variable v and its k-th child: (v's stride among the child's parents) · (the child's cardinality). */
    private final int[][] childStep;
    /** A deliberately wrong conditional P(x_v | pa(v)) without the children's factors, for tests that must fail. */
    private final boolean withoutChildren;

    private GibbsSampling(BayesNet net, Evidence evidence, int[] query, boolean withoutChildren) {
        this.net = net;
        this.withoutChildren = withoutChildren;
        this.evidence = evidence;
        this.query = query;
        this.free = java.util.Arrays.stream(net.orderView()).filter(v -> !evidence.isObserved(v)).toArray();
        this.childStep = new int[net.size()][];
        for (int v = 0; v < net.size(); v++) {
            int[] kids = net.childrenView(v);
            childStep[v] = new int[kids.length];
            for (int k = 0; k < kids.length; k++) {
                int[] ps = net.parentsView(kids[k]);
                for (int j = 0; j < ps.length; j++) {
                    if (ps[j] == v) {
                        childStep[v][k] = net.stridesView(kids[k])[j] * net.cardinality(kids[k]);
                    }
                }
            }
        }
    }

    public static GibbsSampling of(BayesNet net, Evidence evidence, int... query) {
        return new GibbsSampling(Objects.requireNonNull(net, "net"), WeightedSampling.checkEvidence(net, evidence),
            WeightedSampling.checkQuery(net, query), false);
    }

    /**
     * A deliberately wrong Gibbs sampler that draws each variable from P(x_v | pa(v)) alone, leaving out the
     * children's factors of its Markov blanket: it ignores evidence below a variable, so it does not sample the
     * posterior. For tests that must be able to fail.
     */
    static GibbsSampling withoutChildFactors(BayesNet net, Evidence evidence, int... query) {
        return new GibbsSampling(Objects.requireNonNull(net, "net"), WeightedSampling.checkEvidence(net, evidence),
            WeightedSampling.checkQuery(net, query), true);
    }

    /**
     * A starting state: a likelihood-weighting draw with positive weight.
     *
     * @throws InvalidInputException if none is found in 100,000 tries (evidence impossible or extremely rare)
     */
    public int[] initialState(UniformRandomProvider rng) {
        LikelihoodWeighting lw = LikelihoodWeighting.of(net, evidence, query);
        int[] state = new int[net.size()];
        for (int i = 0; i < INITIAL_TRIES; i++) {
            if (lw.weightedSample(rng, state) > 0) {
                return state;
            }
        }
        throw new InvalidInputException("no state consistent with the evidence " + evidence.describe(net)
            + " was found in " + INITIAL_TRIES + " likelihood-weighting draws: the evidence has probability zero or"
            + " is extremely rare");
    }

    /** One systematic-scan sweep over the unobserved variables, in place. */
    public void sweep(int[] state, UniformRandomProvider rng) {
        double[] p = new double[maxCardinality()];
        int[] base = new int[net.size()];
        for (int v : free) {
            int k = net.cardinality(v);
            double[] table = net.tableView(v);
            int offset = net.rowOffset(v, state);
            int[] kids = withoutChildren ? NO_CHILDREN : net.childrenView(v);
            int current = state[v];
            state[v] = 0;
            for (int c = 0; c < kids.length; c++) {
                base[c] = net.rowOffset(kids[c], state) + state[kids[c]];
            }
            double total = 0;
            for (int s = 0; s < k; s++) {
                double q = table[offset + s];
                for (int c = 0; c < kids.length && q > 0; c++) {
                    q *= net.tableView(kids[c])[base[c] + s * childStep[v][c]];
                }
                p[s] = q;
                total += q;
            }
            if (!(total > 0)) {
                state[v] = current;
                throw new IllegalStateException("variable " + net.variable(v) + " has no state of positive probability"
                    + " given its Markov blanket: the chain left the support");
            }
            state[v] = ForwardSampler.draw(p, 0, k, rng.nextDouble() * total);
        }
    }

    private int maxCardinality() {
        int m = 1;
        for (int v = 0; v < net.size(); v++) {
            m = Math.max(m, net.cardinality(v));
        }
        return m;
    }

    /** Chain {@code chain}: initial state, {@code warmup} discarded sweeps, then {@code draws} kept sweeps. */
    public GibbsChain chain(RandomStreams streams, int chain, int warmup, int draws) {
        if (warmup < 0 || draws < 1) {
            throw new IllegalArgumentException("warm-up must be >= 0 and draws >= 1, are " + warmup + ", " + draws);
        }
        UniformRandomProvider rng = streams.stream(STREAM, chain);
        int[] state = initialState(rng);
        for (int t = 0; t < warmup; t++) {
            sweep(state, rng);
        }
        return new GibbsChain(chain, query.clone(), draws(state, rng, draws));
    }

    /**
     * Advances a chain by {@code sweeps} sweeps in place and returns the query variables' states after each
     * ({@code [q][t]}). For round-based drivers: round r of chain c can use the stream (STREAM, c, r) and carry
     * {@code state} (a plain int[]) between rounds.
     */
    public int[][] draws(int[] state, UniformRandomProvider rng, int sweeps) {
        int[][] out = new int[query.length][sweeps];
        for (int t = 0; t < sweeps; t++) {
            sweep(state, rng);
            for (int q = 0; q < query.length; q++) {
                out[q][t] = state[query[q]];
            }
        }
        return out;
    }

    /** The query variables' indices (a copy). */
    public int[] queryVariables() {
        return query.clone();
    }

    /**
     * The pooled posterior marginal of the q-th query variable from several chains, with standard errors by batch
     * means: each chain's draws are cut into {@code batches} equal batches (a remainder at the end is dropped),
     * p̂ is the mean of all batch means and SE = sd(batch means)/√(number of batches). The ESS reported is the
     * smallest p̂(1 − p̂)/SE² over the states. With a single batch in all (one chain, {@code batches} = 1) there is no
     * spread of batch means: the SEs and the ESS are NaN.
     */
    public Marginal posterior(List<GibbsChain> chains, int q, int batches) {
        if (chains.isEmpty() || batches < 1) {
            throw new IllegalArgumentException("need at least one chain and one batch");
        }
        int variable = query[q];
        int k = net.cardinality(variable);
        int total = chains.size() * batches;
        double[][] means = new double[k][total];
        long samples = 0;
        int b = 0;
        for (GibbsChain chain : chains) {
            int length = chain.length() / batches;
            if (length < 1) {
                throw new IllegalArgumentException("chain " + chain.chain() + " has fewer draws than batches");
            }
            int[] d = chain.draws()[q];
            for (int j = 0; j < batches; j++, b++) {
                for (int t = j * length; t < (j + 1) * length; t++) {
                    means[d[t]][b]++;
                }
                for (int s = 0; s < k; s++) {
                    means[s][b] /= length;
                }
            }
            samples += chain.length();
        }
        double[] p = new double[k];
        double[] se = new double[k];
        double ess = total > 1 ? Double.POSITIVE_INFINITY : Double.NaN; // one batch mean has no spread
        for (int s = 0; s < k; s++) {
            double mean = 0;
            for (double m : means[s]) {
                mean += m;
            }
            mean /= total;
            double ss = 0;
            for (double m : means[s]) {
                ss += (m - mean) * (m - mean);
            }
            p[s] = mean;
            se[s] = total > 1 ? Math.sqrt(ss / (total - 1) / total) : Double.NaN;
            if (se[s] > 0) {
                ess = Math.min(ess, mean * (1 - mean) / (se[s] * se[s]));
            }
        }
        return new Marginal(net.variable(variable), net.states(variable), p, se, ess, samples);
    }
}
