package org.sparkmc.spark.consensus;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.consensus.Combiner;
import org.sparkmc.core.consensus.ConsensusAverage;
import org.sparkmc.core.consensus.DensityProductCombiner;
import org.sparkmc.core.consensus.RowLikelihood;
import org.sparkmc.core.consensus.ShardAssignment;
import org.sparkmc.core.consensus.ShardCheck;
import org.sparkmc.core.consensus.ShardDisagreement;
import org.sparkmc.core.consensus.ShardDraws;
import org.sparkmc.core.consensus.ShardSampler;
import org.sparkmc.core.consensus.ShardSkew;
import org.sparkmc.core.consensus.SyntheticGlmData;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.DirectFunctions;
import org.sparkmc.spark.cli.Progress;
import org.sparkmc.spark.diagnose.ParameterResult;
import org.sparkmc.spark.diagnose.SummaryFiles;
import scala.Tuple2;

/**
 * The {@code consensus} driver (consensus Monte Carlo, Scott et al. 2016): the table's rows are checked and keyed
 * on the executors ({@link GlmTable}), shuffled so that shard s is partition s, the copies of identical rows spread
 * over the shards ({@link ShardedRows}), and each shard's task
 * builds its {@code ShardTarget} from its rows as primitive arrays and runs its chains there
 * ({@link ShardSampler}). Only the draws come back (S × chains × iterations × (d + 2) doubles); the driver's memory
 * does not depend on the number of rows. The driver then summarises each shard (R-hat and ESS over its chains),
 * checks that the shards agree ({@link ShardDisagreement}) and look Gaussian ({@link ShardSkew}), and combines
 * them.
 *
 * <p>Combined chain c is the combination of every shard's chain c: for the consensus average, its draw i averages
 * the shards' draw i of chain c (so R-hat across combined chains means what it means for the shards); for the
 * density-product combiners, chain c is an index chain of its own over every shard's pooled draws, with the stream
 * keyed ({@value #COMBINE_STREAM}, c). Every number depends on the seed, the rows and the settings only: a row's
 * shard and its place in the shard come from its values and, for a repeated row, the number of its copies
 * ({@link ShardAssignment}), never from a file, a partition or an executor.
 */
public final class ConsensusJob {
    private static final Logger LOG = LoggerFactory.getLogger(ConsensusJob.class);
    /** Stream purpose of a density-product combiner's index chain c. */
    public static final String COMBINE_STREAM = "consensus-combine";
    /**
     * Sweeps of a density-product combiner's index chain per combined draw: at the default bandwidth a proposed
     * index is accepted a few percent of the time, so one sweep a draw left 4,000 draws with a bulk ESS of 3–5
     * (4 shards, 3 coefficients); 20 sweeps gave 184–193 and 60 gave 535–557 ({@code ConsensusFamiliesTest}).
     */
    static final int INDEX_SWEEPS_PER_DRAW = 60;

    private final SparkSession spark;
    private final ConsensusConfig config;
    private final GlmTable table;

    ConsensusJob(SparkSession spark, ConsensusConfig config, GlmTable table) {
        this.spark = spark;
        this.config = config;
        this.table = table;
    }

    ConsensusResult run() {
        long t0 = System.nanoTime();
        ShardSampler.Settings s = config.sampling();
        Progress progress = Progress.forJob(LOG, 2);
        LOG.info("consensus: {} model on {} ({} features), {} shards × {} chains of {} ({} warm-up, {} kept "
                + "iterations), combiner {}, seed {}", config.modelName(), config.data(), table.features().size(),
                config.shards(), s.chains(), s.kernel(), s.warmup(), s.iterations(), config.combiner(),
                config.seed());
        spark.sparkContext().setJobGroup("sparkmc-consensus-shards", "consensus: check the rows, shard them, sample "
                + config.shards() + " shards", true);
        JavaRDD<ShardSampler.Result> sampled = ShardedRows.of(table.byShard(spark, config.likelihood(),
                config.shards(), config.seed()), config.shards(), config.seed())
                .mapPartitionsWithIndex(new SampleShard(config), true);
        AtomicInteger done = new AtomicInteger();
        List<ShardSampler.Result> shards;
        try {
            shards = new ArrayList<>(DirectFunctions.mapCollectAsync(sampled, r -> r, (partition, results) ->
                    LOG.info(String.format(Locale.ROOT, "consensus: shard %d sampled in %.1f s (%d of %d shards, %.1f"
                            + " s since the start)", partition, results.get(0).seconds(), done.incrementAndGet(),
                            config.shards(), (System.nanoTime() - t0) / 1e9))).get());
        } catch (RuntimeException e) {
            throw table.located(spark, config.likelihood(), e);
        }
        shards.sort(Comparator.comparingInt(ShardSampler.Result::shard));
        double samplingSeconds = (System.nanoTime() - t0) / 1e9;
        RowLikelihood likelihood = config.likelihood();
        List<String> names = likelihood.parameterNames();
        int d = likelihood.dimension();
        int chains = s.chains();
        int t = s.iterations();
        double[][][][] reported = new double[shards.size()][][][];
        List<List<FullParameterSummary>> summaries = new ArrayList<>();
        List<String> unconverged = new ArrayList<>();
        double[][][] positions = new double[shards.size()][chains * t][];
        for (ShardSampler.Result r : shards) {
            int shard = r.shard();
            reported[shard] = new double[chains][][];
            for (int c = 0; c < chains; c++) {
                for (int i = 0; i < t; i++) {
                    double[] theta = new double[d];
                    for (int j = 0; j < d; j++) {
                        theta[j] = r.draws()[c][j][i];
                    }
                    positions[shard][c * t + i] = theta;
                }
                // the reported quantities, then lp__ (the row after the coordinates)
                double[][] rows = reportedChain(likelihood, java.util.Arrays.copyOfRange(positions[shard], c * t,
                        (c + 1) * t), names.size());
                rows = java.util.Arrays.copyOf(rows, names.size() + 1);
                rows[names.size()] = r.draws()[c][d];
                reported[shard][c] = rows;
            }
            List<String> withLp = new ArrayList<>(names);
            withLp.add("lp__");
            double[][][] byParameter = byParameter(reported[shard]);
            List<FullParameterSummary> shardSummary = IntStream.range(0, withLp.size()).parallel()
                    .mapToObj(p -> FullParameterSummary.of(withLp.get(p), byParameter[p])).toList();
            summaries.add(shardSummary);
            // one line per shard, every one (they arrive together, so Progress's rhythm would drop all but one);
            // lp__ counts, as in the warning below and in the chains job
            LOG.info(String.format(Locale.ROOT, "shard %d/%d: %d rows  max R-hat %s  min ESS "
                    + "bulk %s  acceptance %.3f  %.1f s", shard, config.shards(), r.rows(),
                    SummaryFiles.summaryShown(ConsensusResult.maxRhat(shardSummary), "%.4f"),
                    SummaryFiles.summaryShown(ConsensusResult.minEssBulk(shardSummary), "%.0f"),
                    (double) r.accepted() / r.proposed(), r.seconds()));
            Map<String, List<String>> failing = ConsensusReport.THRESHOLDS.failingOfFull(shardSummary);
            if (!failing.isEmpty()) {
                Map.Entry<String, List<String>> first = failing.entrySet().iterator().next();
                unconverged.add("shard " + shard + " (" + first.getKey() + ": " + first.getValue().get(0)
                        + (failing.size() > 1 ? ", and " + (failing.size() - 1) + " more" : "") + ")");
            }
        }
        if (!unconverged.isEmpty()) {
            LOG.warn("consensus: the chains of {} of {} shards have not converged (R-hat < {} and bulk and tail ESS ≥ "
                    + "{}, the chains job's defaults): {}; their sub-posteriors, and so the combined draws, may be "
                    + "off: give more --iterations or --warmup, or fewer shards", unconverged.size(), config.shards(),
                    ConsensusReport.THRESHOLDS.maxRhat(), (long) ConsensusReport.THRESHOLDS.minEss(),
                    String.join("; ", unconverged));
        }
        progress.step(1, "sampling", String.format(Locale.ROOT, "sampled %d shards × %d chains in %.1f s",
                config.shards(), chains, samplingSeconds), false);
        ShardDraws draws = ShardDraws.of(positions);
        List<String> coordinates = coordinateNames(likelihood);
        ShardCheck disagreement = ShardDisagreement.check(draws, coordinates, ShardDisagreement.DEFAULT_ALPHA);
        ShardCheck skew = ShardSkew.check(draws, shards.stream().map(ShardSampler.Result::mode)
                .toArray(double[][]::new), coordinates);
        for (ShardCheck check : List.of(disagreement, skew)) {
            if (check.warn()) {
                LOG.warn("consensus: {}", check.message());
            } else {
                LOG.info("consensus: {}", check.message());
            }
        }
        double[][][] combinedPositions = new double[chains][][];
        double acceptance = combine(draws, shards, combinedPositions);
        double[][][] combined = new double[chains][][];
        for (int c = 0; c < chains; c++) {
            combined[c] = reportedChain(likelihood, combinedPositions[c], names.size());
        }
        double[][][] byParameter = byParameter(combined);
        List<ParameterResult> results = IntStream.range(0, names.size()).parallel()
                .mapToObj(p -> ParameterResult.of(names.get(p), byParameter[p])).toList();
        ConsensusResult result = new ConsensusResult(names, combined, results, shards, reported, summaries,
                disagreement, skew, acceptance, samplingSeconds, (System.nanoTime() - t0) / 1e9);
        progress.step(2, "combining", String.format(Locale.ROOT, "combined %d shards with %s: max R-hat %s  min ESS"
                + " bulk %s%s  (shards: max R-hat %s, min ESS bulk %s)", config.shards(), config.combiner(),
                SummaryFiles.summaryShown(result.parameters().stream().mapToDouble(FullParameterSummary::rhat).max()
                        .orElse(Double.NaN), "%.4f"),
                SummaryFiles.summaryShown(result.parameters().stream().mapToDouble(FullParameterSummary::essBulk)
                        .min().orElse(Double.NaN), "%.0f"),
                Double.isNaN(acceptance) ? "" : String.format(Locale.ROOT, "  index-chain acceptance %.3f",
                        acceptance), SummaryFiles.summaryShown(result.maxShardRhat(), "%.4f"),
                SummaryFiles.summaryShown(result.minShardEss(), "%.0f")), true);
        return result;
    }

    /**
     * Fills {@code out[c]} with combined chain c's positions [iteration][coordinate]; the combiner's acceptance. The
     * consensus average weighs each shard by its Laplace approximation's precision.
     */
    private double combine(ShardDraws draws, List<ShardSampler.Result> shards, double[][][] out) {
        int chains = out.length;
        int t = config.sampling().iterations();
        if (config.combiner().equals("consensus")) {
            double[][] precisions = shards.stream().map(ShardSampler.Result::precision).toArray(double[][]::new);
            double[][] all = ConsensusAverage.byPrecisions(precisions).combine(draws, null).draws();
            for (int c = 0; c < chains; c++) {
                out[c] = java.util.Arrays.copyOfRange(all, c * t, (c + 1) * t);
            }
            return Double.NaN;
        }
        RandomStreams streams = new RandomStreams(config.seed());
        int warmupSweeps = Math.max(100, t / 10);
        Combiner combiner = config.combiner().equals("semiparametric")
                ? DensityProductCombiner.semiparametric(Double.NaN, t, INDEX_SWEEPS_PER_DRAW, warmupSweeps)
                : DensityProductCombiner.nonparametric(Double.NaN, t, INDEX_SWEEPS_PER_DRAW, warmupSweeps);
        double accepted = 0;
        for (int c = 0; c < chains; c++) {
            Combiner.CombinedDraws d = combiner.combine(draws, streams.stream(COMBINE_STREAM, c + 1));
            out[c] = d.draws();
            accepted += d.acceptanceRate();
        }
        return accepted / chains;
    }

    /** Names of the unconstrained coordinates: the coefficients', then "theta[j]" for the model's own. */
    static List<String> coordinateNames(RowLikelihood likelihood) {
        List<String> names = new ArrayList<>(likelihood.parameterNames().subList(0, likelihood.features()));
        for (int j = likelihood.features(); j < likelihood.dimension(); j++) {
            names.add("theta[" + (j + 1) + "]");
        }
        return names;
    }

    /** A chain's positions [iteration][coordinate] as reported quantities [parameter][iteration]. */
    private static double[][] reportedChain(RowLikelihood likelihood, double[][] positions, int width) {
        double[][] rows = new double[width][positions.length];
        for (int i = 0; i < positions.length; i++) {
            double[] p = likelihood.parameters(positions[i]);
            for (int k = 0; k < width; k++) {
                rows[k][i] = p[k];
            }
        }
        return rows;
    }

    /** [chain][parameter][iteration] → [parameter][chain][iteration]. */
    static double[][][] byParameter(double[][][] draws) {
        int width = draws[0].length;
        double[][][] out = new double[width][draws.length][];
        for (int c = 0; c < draws.length; c++) {
            for (int p = 0; p < width; p++) {
                out[p][c] = draws[c][p];
            }
        }
        return out;
    }

    /**
     * A shard's task: its rows in canonical order as primitive arrays, then its chains ({@link ShardSampler}). The
     * partition's index is the shard's number ({@link ShardedRows}), which is what names a shard with no rows.
     */
    static final class SampleShard implements Function2<Integer, Iterator<Tuple2<Integer, double[]>>,
            Iterator<ShardSampler.Result>> {
        private static final long serialVersionUID = 1L;
        private final ConsensusConfig config;

        SampleShard(ConsensusConfig config) {
            this.config = config;
        }

        @Override
        public Iterator<ShardSampler.Result> call(Integer shard, Iterator<Tuple2<Integer, double[]>> rows) {
            List<double[]> list = new ArrayList<>();
            while (rows.hasNext()) {
                Tuple2<Integer, double[]> row = rows.next();
                if (row._1() != shard.intValue()) {
                    throw new IllegalStateException("a row of shard " + row._1() + " in partition " + shard);
                }
                list.add(row._2());
            }
            int p = config.likelihood().features();
            SyntheticGlmData.Rows ordered = ShardAssignment.ordered(config.seed(), list.toArray(double[][]::new), p);
            list.clear();
            return List.of(ShardSampler.run(config.likelihood(), ordered.features(), ordered.responses(),
                    config.priorSd(), config.shards(), shard, config.sampling(), new RandomStreams(config.seed()),
                    LOG::info)).iterator();
        }
    }
}
