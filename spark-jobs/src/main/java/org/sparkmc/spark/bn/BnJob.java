package org.sparkmc.spark.bn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.bayesnet.BayesNet;
import org.sparkmc.core.bayesnet.Marginal;
import org.sparkmc.core.bayesnet.WeightedCounts;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.spark.diagnose.Thresholds;

/**
 * The {@code bn} driver: runs the chosen method ({@link WeightedSamplingJob} or {@link GibbsJob} on the executors,
 * or nothing beyond the exact answer) and turns what comes back into posterior marginals with standard errors,
 * next to the exact answer when one was computed.
 */
public final class BnJob {
    private static final Logger LOG = LoggerFactory.getLogger(BnJob.class);
    /** Below this weight ESS a sampling answer is warned of: it rests on too few effective samples. */
    private static final int FEW = 100;
    /** How many failing indicators the warning names; the rest are counted. */
    static final int WARN_NAMED = 10;

    private BnJob() {
    }

    /**
     * @param exact      the exact answer, or null
     * @param gibbsStart the Gibbs chains' initial states (Gibbs only), from {@link GibbsJob#initialStates}
     * @throws org.sparkmc.core.InvalidInputException if every likelihood weight is zero (impossible evidence)
     */
    public static BnResult run(JavaSparkContext sc, BnConfig config, ExactAnswer exact, List<GibbsRound> gibbsStart,
            int partitions) {
        long t0 = System.nanoTime();
        double exactPe = exact == null ? Double.NaN : exact.evidenceProbability();
        return switch (config.method()) {
            case LW, REJECTION -> {
                WeightedSamplingJob.Outcome o = new WeightedSamplingJob(sc, config, partitions).run();
                yield weighted(config, exact, o, seconds(t0), partitions);
            }
            case GIBBS -> {
                if (exact == null) {
                    warnOfZeroTables(config.net());
                }
                GibbsJob job = new GibbsJob(sc, config, partitions);
                GibbsJob.Outcome o = job.run(gibbsStart);
                yield gibbs(config, exact, job.summaries(o.draws()), o.history(), seconds(t0), partitions);
            }
            case EXACT -> {
                List<QueryResult> queries = new ArrayList<>();
                for (Marginal m : exact.marginals()) {
                    int k = m.probabilities().length;
                    queries.add(new QueryResult(m.variable(), m.states(), m.probabilities(), new double[k],
                            nan(k), null, m.probabilities()));
                }
                yield new BnResult(config.method(), queries, 0, Double.NaN, exactPe, 0, exactPe, List.of(), true,
                        seconds(t0), 0, List.of());
            }
        };
    }

    private static BnResult weighted(BnConfig config, ExactAnswer exact, WeightedSamplingJob.Outcome outcome,
            double seconds, int partitions) {
        WeightedCounts counts = outcome.counts();
        BayesNet net = config.net();
        List<QueryResult> queries = new ArrayList<>();
        for (int j = 0; j < config.query().length; j++) {
            Marginal m = counts.posterior(net, j);
            double[] ess = new double[m.probabilities().length];
            Arrays.fill(ess, counts.ess());
            queries.add(new QueryResult(m.variable(), m.states(), m.probabilities(), m.standardErrors(), ess, null,
                    exact == null ? null : exact.marginals()[j].probabilities()));
        }
        if (counts.ess() < FEW) {
            LOG.warn(String.format(Locale.ROOT, "bn: the %s estimates rest on a weight ESS of %.3g (of %,d samples): "
                    + "below about %d, estimates and their SEs are unreliable; draw more --samples%s",
                    config.method().description(), counts.ess(), counts.samples(), FEW,
                    config.method() == BnMethod.LW ? ", or use --method gibbs for evidence this unlikely" : ""));
        }
        // P(e) = E_q[w]: the mean weight (the acceptance rate for rejection), with its plain Monte Carlo SE.
        double n = counts.samples();
        double mean = counts.sumOfWeights() / n;
        double variance = Math.max(0, counts.sumOfSquaredWeights() / n - mean * mean);
        return new BnResult(config.method(), queries, counts.samples(), counts.ess(), mean, Math.sqrt(variance / n),
                exact == null ? Double.NaN : exact.evidenceProbability(), List.of(), true, seconds, partitions,
                outcome.history());
    }

    private static BnResult gibbs(BnConfig config, ExactAnswer exact, List<FullParameterSummary> summaries,
            List<BnResult.Step> history, double seconds, int partitions) {
        BayesNet net = config.net();
        Thresholds thresholds = new Thresholds(config.maxRhat(), config.minEss());
        List<QueryResult> queries = new ArrayList<>();
        int at = 0;
        double minEss = Double.POSITIVE_INFINITY;
        Map<String, List<String>> failing = new LinkedHashMap<>();
        boolean withZeros = exact != null && !tablesWithZeros(net).isEmpty(); // for the exact check's message
        for (int j = 0; j < config.query().length; j++) {
            int v = config.query()[j];
            int k = net.cardinality(v);
            double[] p = new double[k];
            double[] se = new double[k];
            double[] ess = new double[k];
            double[] rhat = new double[k];
            double[] exactP = exact == null ? null : exact.marginals()[j].probabilities();
            for (int s = 0; s < k; s++, at++) {
                FullParameterSummary f = summaries.get(at);
                p[s] = f.mean();
                // A state's indicator constant in every draw has no Monte Carlo SE: NA, not a "certain" 0.
                se[s] = Thresholds.constant(f) ? Double.NaN : f.mcseMean();
                ess[s] = f.essMean();
                rhat[s] = f.rhat();
                List<String> why = new ArrayList<>(thresholds.failures(f));
                String offExact = exactP == null ? null
                        : GibbsExactCheck.failure(f, exactP[s], (long) config.chains() * config.draws(), withZeros);
                if (offExact != null) {
                    why.add(offExact);
                } else if (Thresholds.constant(f) && exactP == null) {
                    // Constant in every draw of every chain: R-hat and ESS are undefined, which diagnose lets pass
                    // (a constant quantity of a model); for a state's indicator it mostly means a chain that never
                    // visited it, or never left it (P(TRUE) = 0 ± 0 against an exact 0.05 passed as "converged").
                    why.add("the same in every draw of every chain (a state never visited, or never left; fine only "
                            + "if the evidence makes it impossible or certain)");
                }
                if (!why.isEmpty()) {
                    failing.put(f.name(), why);
                }
                if (!Double.isNaN(f.essMean())) {
                    minEss = Math.min(minEss, f.essMean());
                }
            }
            queries.add(new QueryResult(net.variable(v), net.states(v), p, se, ess, rhat,
                    exact == null ? null : exact.marginals()[j].probabilities()));
        }
        boolean converged = failing.isEmpty();
        if (!converged) {
            warnNotConverged(config, failing, at);
        }
        double exactPe = exact == null ? Double.NaN : exact.evidenceProbability();
        return new BnResult(config.method(), queries, (long) config.chains() * config.draws(),
                Double.isInfinite(minEss) ? Double.NaN : minEss, Double.NaN, Double.NaN, exactPe, summaries,
                converged, seconds, partitions, history);
    }

    /**
     * Without an exact answer to compare with, a network with zero entries in its tables is warned of: zeros can cut
     * the state space into parts that Gibbs sampling cannot move between, and chains that all start in one part
     * agree (R-hat 1) on a wrong answer.
     */
    private static void warnOfZeroTables(BayesNet net) {
        List<String> withZeros = tablesWithZeros(net);
        if (!withZeros.isEmpty()) {
            LOG.warn("bn: the tables of {} of {} variables have zero entries ({}{}): Gibbs chains may be unable to "
                    + "reach every state, and R-hat cannot see a state no chain reaches; there is no exact answer to "
                    + "check against (--exact never, or not cheap): compare with --method lw", withZeros.size(),
                    net.size(), String.join(", ", withZeros.subList(0, Math.min(WARN_NAMED, withZeros.size()))),
                    withZeros.size() > WARN_NAMED ? ", …" : "");
        }
    }

    /** The variables whose tables have a zero entry. */
    private static List<String> tablesWithZeros(BayesNet net) {
        List<String> withZeros = new ArrayList<>();
        for (int i = 0; i < net.size(); i++) {
            if (Arrays.stream(net.table(i)).anyMatch(x -> x == 0)) {
                withZeros.add(net.variable(i));
            }
        }
        return withZeros;
    }

    /** One WARN line naming the indicators that fail, with their R-hat and ESS against the thresholds. */
    private static void warnNotConverged(BnConfig config, Map<String, List<String>> failing, int indicators) {
        StringBuilder named = new StringBuilder();
        int shown = 0;
        for (Map.Entry<String, List<String>> e : failing.entrySet()) {
            if (shown++ == WARN_NAMED) {
                named.append("; and ").append(failing.size() - WARN_NAMED).append(" more");
                break;
            }
            named.append(shown == 1 ? "" : "; ").append(e.getKey()).append(": ")
                    .append(String.join(", ", e.getValue()));
        }
        LOG.warn(String.format(Locale.ROOT, "bn: Gibbs NOT converged after %d kept sweeps per chain (%d chains): %d "
                + "of %d indicators fail R-hat < %s and bulk/tail ESS ≥ %s: %s", config.draws(), config.chains(),
                failing.size(), indicators, plain(config.maxRhat()), plain(config.minEss()), named));
    }

    /** A threshold as given: 1.01, 400, 1000000. */
    private static String plain(double x) {
        return java.math.BigDecimal.valueOf(x).stripTrailingZeros().toPlainString();
    }

    private static double[] nan(int k) {
        double[] out = new double[k];
        Arrays.fill(out, Double.NaN);
        return out;
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }
}
