package org.sparkmc.spark.bn;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.bayesnet.GibbsSampling;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.core.diagnostics.ParameterSummary;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.BusiestPartition;
import org.sparkmc.spark.DirectFunctions;
import org.sparkmc.spark.run.StepRunner;
import org.sparkmc.spark.run.SteppedJob;

/**
 * Gibbs sampling over Markov blankets (core {@link GibbsSampling}) with the chains spread over Spark partitions,
 * run in rounds like the {@code chains} job.
 *
 * <p>Chain c starts on the driver from a likelihood-weighting draw of positive weight, drawn from the stream
 * (bn-gibbs, c) — so impossible evidence is reported before Spark starts. Round r advances it with the stream
 * (bn-gibbs, c, r), never the partition, so the draws do not depend on partitioning, cores or task retries; the
 * driver carries only the states between rounds, and each sampling round brings the query variables' states
 * back (4 bytes per query variable per sweep per chain). After each sampling round the driver computes the
 * rank-normalised split R-hat and ESS of every indicator 1[X_q = s] over the chains (core diagnostics, R's
 * {@code posterior} definitions); at the end the pooled posterior of each state is the indicator's mean, with its
 * MCSE.
 */
public final class GibbsJob {
    private static final Logger LOG = LoggerFactory.getLogger(GibbsJob.class);

    private final JavaSparkContext sc;
    private final BnConfig config;
    private final int partitions;
    private final GibbsSampling gibbs;
    private final RandomStreams streams;

    public GibbsJob(JavaSparkContext sc, BnConfig config, int partitions) {
        this.sc = sc;
        this.config = config;
        this.partitions = partitions;
        this.gibbs = GibbsSampling.of(config.net(), config.evidence(), config.query());
        this.streams = new RandomStreams(config.seed());
    }

    /**
     * Every chain's starting state (chains numbered from 1), drawn on the driver.
     *
     * @throws org.sparkmc.core.InvalidInputException if no state consistent with the evidence is found
     */
    public static List<GibbsRound> initialStates(BnConfig config) {
        GibbsSampling gibbs = GibbsSampling.of(config.net(), config.evidence(), config.query());
        RandomStreams streams = new RandomStreams(config.seed());
        List<GibbsRound> states = new ArrayList<>();
        for (int c = 1; c <= config.chains(); c++) {
            states.add(GibbsRound.at(c, gibbs.initialState(streams.stream(GibbsSampling.STREAM, c))));
        }
        return states;
    }

    /** Kept draws {@code [chain][q][t]} and the progress history. */
    public record Outcome(int[][][] draws, List<BnResult.Step> history) {
    }

    /** Runs every round ({@link StepRunner}: a round a step) from the chains' starting states. */
    public Outcome run(List<GibbsRound> initial) {
        Rounds rounds = new Rounds(initial);
        StepRunner.withoutCheckpoints(LOG).run(rounds);
        return new Outcome(rounds.draws, rounds.history);
    }

    /** The rounds as {@link StepRunner} drives them: one Spark job a round, the diagnostics on the driver after it. */
    private final class Rounds implements SteppedJob {
        private final int rounds = config.warmupRounds() + config.samplingRounds();
        private final int[][][] draws = new int[config.chains()][config.query().length][config.draws()];
        private final List<BnResult.Step> history = new ArrayList<>();
        private final long started = System.nanoTime();
        private List<GibbsRound> states;
        private int round;
        private int kept;

        Rounds(List<GibbsRound> initial) {
            this.states = initial;
        }

        @Override
        public void initialise() {
            LOG.info("bn: Gibbs sampling on {} ({} variables), evidence [{}], {} chains over {} partitions: {} warm-up "
                    + "and {} kept sweeps per chain in rounds of {}; seed {}", config.networkPath(),
                    config.net().size(), config.evidenceText(), config.chains(), partitions, config.warmup(),
                    config.draws(), config.roundSize(), config.seed());
        }

        @Override
        public int plannedSteps() {
            return rounds;
        }

        @Override
        public int stepsDone() {
            return round;
        }

        @Override
        public boolean isDone() {
            return round >= rounds;
        }

        @Override
        public void advance(int limit, Consumer<StepLine> lines) {
            round++;
            long roundStart = System.nanoTime();
            boolean warmup = round <= config.warmupRounds();
            int sweeps = warmup ? Math.min(config.roundSize(), config.warmup() - (round - 1) * config.roundSize())
                    : Math.min(config.roundSize(), config.draws() - kept);
            String phase = warmup ? "warmup" : "sampling";
            sc.setJobGroup("sparkmc-bn-gibbs-round-" + round, "bn: Gibbs round " + round + " (" + phase + ", "
                    + sweeps + " sweeps × " + config.chains() + " chains)", false);
            GibbsSampling g = gibbs;
            RandomStreams rs = streams;
            int thisRound = round;
            // a named function object (DirectFunctions), as every per-round job: no closure cleaning per round
            List<GibbsRound> results = new ArrayList<>(DirectFunctions.mapCollect(sc.parallelize(states, partitions),
                    chain -> GibbsJob.advance(g, rs, chain, thisRound, sweeps, !warmup)));
            results.sort(Comparator.comparingInt(GibbsRound::chain));
            long collected = System.nanoTime();
            states = new ArrayList<>();
            BusiestPartition busiest = new BusiestPartition();
            int q = config.query().length;
            for (int c = 0; c < results.size(); c++) {
                GibbsRound r = results.get(c);
                busiest.add(r.partition(), r.seconds());
                states.add(GibbsRound.at(r.chain(), r.state()));
                if (!warmup) {
                    for (int j = 0; j < q; j++) {
                        System.arraycopy(r.draws()[j], 0, draws[c][j], kept, sweeps);
                    }
                }
            }
            double maxRhat = Double.NaN;
            double minEss = Double.NaN;
            if (!warmup) {
                kept += sweeps;
                for (ParameterSummary s : indicatorSummaries(draws, kept)) {
                    maxRhat = worse(maxRhat, s.rhat(), true);
                    // A 0/1 indicator's tail ESS is often NA (its 5% and 95% quantiles are 0 or 1, as in R's
                    // posterior): the minimum is over the ESS values that exist.
                    minEss = worse(worse(minEss, s.essBulk(), false), s.essTail(), false);
                }
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            history.add(new BnResult.Step(round, kept, maxRhat, minEss, seconds));
            // Warm-up rounds keep no draws, so they have no diagnostics to show (as in the chains job); nor do
            // indicators that have not varied yet (every chain always in the same state).
            String diagnostics = warmup ? "no diagnostics in warm-up"
                    : Double.isNaN(maxRhat) ? "no diagnostics yet: no queried state has varied in any chain"
                    : String.format(Locale.ROOT, "max R-hat %.4f  min ESS %.0f", maxRhat, minEss);
            // The round's Spark job split into the busiest partition's sweeps and the rest (scheduling, shipping).
            double compute = busiest.seconds();
            double job = (collected - roundStart) / 1e9;
            lines.accept(new StepLine(round, phase, String.format(Locale.ROOT, "round %d/%d %-8s draws/chain %d  %s  "
                    + "%.0f sweeps/s  compute %.2f s  sync %.2f s", round, rounds, phase, kept, diagnostics,
                    sweeps * (double) config.chains() / ((System.nanoTime() - roundStart) / 1e9), compute,
                    Math.max(0, job - compute)), round == rounds));
        }

        /** Never asked for: Gibbs sampling on a network is not checkpointed. */
        @Override
        public void snapshot() {
            throw new UnsupportedOperationException("bn Gibbs sampling keeps no checkpoint");
        }

        /** Nothing to drop: each round's job leaves nothing cached. */
        @Override
        public void release() {
        }
    }

    private static GibbsRound advance(GibbsSampling gibbs, RandomStreams streams, GibbsRound chain, int round,
            int sweeps, boolean keep) {
        long t0 = System.nanoTime();
        int[] state = chain.state().clone();
        UniformRandomProvider rng = streams.stream(GibbsSampling.STREAM, chain.chain(), round);
        int[][] draws = new int[0][];
        if (keep) {
            draws = gibbs.draws(state, rng, sweeps);
        } else {
            for (int t = 0; t < sweeps; t++) {
                gibbs.sweep(state, rng);
            }
        }
        TaskContext task = TaskContext.get();
        return new GibbsRound(chain.chain(), state, draws, (System.nanoTime() - t0) / 1e9,
                task == null ? 0 : task.partitionId());
    }

    private List<ParameterSummary> indicatorSummaries(int[][][] draws, int length) {
        List<ParameterSummary> out = new ArrayList<>();
        for (int j = 0; j < config.query().length; j++) {
            int v = config.query()[j];
            for (int s = 0; s < config.net().cardinality(v); s++) {
                out.add(ParameterSummary.of(indicatorName(j, s), indicator(draws, j, s, length)));
            }
        }
        return out;
    }

    /** The full summaries of every indicator 1[X_q = s], query by query, state by state. */
    public List<FullParameterSummary> summaries(int[][][] draws) {
        List<FullParameterSummary> out = new ArrayList<>();
        for (int j = 0; j < config.query().length; j++) {
            int v = config.query()[j];
            for (int s = 0; s < config.net().cardinality(v); s++) {
                out.add(FullParameterSummary.of(indicatorName(j, s), indicator(draws, j, s, config.draws())));
            }
        }
        return out;
    }

    String indicatorName(int j, int s) {
        int v = config.query()[j];
        return config.net().variable(v) + "=" + config.net().state(v, s);
    }

    /** The 0/1 traces {@code [chain][t]} of X_j = s over the first {@code length} kept draws. */
    static double[][] indicator(int[][][] draws, int j, int s, int length) {
        double[][] out = new double[draws.length][length];
        for (int c = 0; c < draws.length; c++) {
            int[] d = draws[c][j];
            for (int t = 0; t < length; t++) {
                out[c][t] = d[t] == s ? 1 : 0;
            }
        }
        return out;
    }

    private static double worse(double current, double v, boolean max) {
        if (Double.isNaN(v)) {
            return current;
        }
        if (Double.isNaN(current)) {
            return v;
        }
        return max ? Math.max(current, v) : Math.min(current, v);
    }
}
