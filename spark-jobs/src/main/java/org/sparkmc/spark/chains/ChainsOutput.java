package org.sparkmc.spark.chains;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.mcmc.RunningMeanObserver;
import org.sparkmc.core.model.RunningMeans;
import org.sparkmc.spark.diagnose.SummaryFiles;
import org.sparkmc.spark.io.AtomicOutput;
import org.sparkmc.spark.io.CmdStanCsv;
import org.sparkmc.spark.io.ParquetDraws;
import org.sparkmc.spark.io.PlainParquet;
import scala.Tuple2;

/**
 * Writes a {@code chains} run, committed atomically: {@code draws.parquet} (chain, draw, one column per parameter,
 * lp__, accept_stat__, the kernel's per-step statistics; chains and draws numbered from 1), {@code summary.json},
 * {@code summary.csv}, {@code report.html}, on request {@code cmdstan/chain-<k>.csv} (one CmdStan-style CSV per
 * chain), the files of a target with running means (the Ising model's {@code posterior_mean.png}), and for a
 * reversible-jump run {@code model_probs.csv} and (normal mixtures) {@code predictive.csv} ({@link RjmcmcSummary}).
 */
public final class ChainsOutput {

    /**
     * What to write besides the draws and summaries, and what summary.json records of how the run was asked for
     * beyond its config.
     *
     * @param modelParams the model's parameters as it used them, by name ({@code model_params})
     * @param data        the model's --data file, or null
     */
    public record Options(boolean cmdstanCsv, int reportParameters, Map<String, Object> modelParams, String data) {
        public static final Options DEFAULT = new Options(false, 20, Map.of(), null);
    }

    private ChainsOutput() {
    }

    public static void write(SparkSession spark, AtomicOutput out, ChainsJob job, ChainsConfig config,
            ChainsResult result, Options options) {
        JavaRDD<RoundResult> rounds = job.samplingDraws();
        Long divergences = Divergences.count(rounds, job.recordedNames());
        writeDraws(spark, out, rounds, job.recordedNames(), config);
        if (options.cmdstanCsv()) {
            writeCmdStan(spark, out, rounds, job.recordedNames(), config);
        }
        RjmcmcSummary rj = RjmcmcSummary.of(job, config, result);
        job.release();
        if (rj != null) {
            out.writeText("model_probs.csv", rj.modelProbsCsv());
            if (rj.predictive() != null) {
                out.writeText("predictive.csv", rj.predictiveCsv());
            }
        }
        double[] pooledMean = RunningMeanObserver.pooledMean(config.kernel(), job.states());
        if (config.target() instanceof RunningMeans means && pooledMean != null) {
            // e.g. the Ising model's posterior mean image, averaged inside each chain's state and pooled here
            means.runningMeanFiles(pooledMean).forEach(out::writeBytes);
        }
        out.writeText("summary.json", summaryJson(config, result, job.acceptanceByChain(), rj, divergences, options));
        out.writeText("summary.csv", SummaryFiles.csv(result.parameters()));
        out.writeText("report.html", ChainsReport.render(config, result, options.reportParameters(), rj));
    }

    static StructType drawsSchema(List<String> names) {
        return ParquetDraws.schema(List.of("chain"), names);
    }

    private static void writeDraws(SparkSession spark, AtomicOutput out, JavaRDD<RoundResult> rounds,
            List<String> names, ChainsConfig config) {
        int roundSize = config.roundSize();
        int firstSamplingRound = config.warmupRounds() + 1;
        JavaRDD<Row> rows = rounds.flatMap(r -> toRows(r, (r.round() - firstSamplingRound) * roundSize).iterator());
        spark.sparkContext().setJobDescription("chains: write draws.parquet");
        PlainParquet.writer(spark.createDataFrame(rows, drawsSchema(names)).coalesce(config.partitions()))
                .parquet(out.staged("draws.parquet"));
    }

    private static void writeCmdStan(SparkSession spark, AtomicOutput out, JavaRDD<RoundResult> rounds,
            List<String> names, ChainsConfig config) {
        spark.sparkContext().setJobDescription("chains: write cmdstan/chain-*.csv");
        String dir = out.staged("cmdstan");
        SerializableConfiguration hadoop = new SerializableConfiguration(spark.sparkContext().hadoopConfiguration());
        String model = config.modelName();
        String kernel = config.kernelName();
        long seed = config.seed();
        int warmup = config.warmup();
        rounds.mapToPair(r -> new Tuple2<>((int) r.chain(), r)).groupByKey(config.partitions()).foreach(chain -> {
            List<RoundResult> pieces = new ArrayList<>();
            chain._2().forEach(pieces::add);
            pieces.sort(java.util.Comparator.comparingInt(RoundResult::round));
            int width = pieces.get(0).draws().length;
            int total = pieces.stream().mapToInt(p -> p.draws()[0].length).sum();
            double[][] rows = new double[width][total];
            int at = 0;
            for (RoundResult p : pieces) {
                for (int j = 0; j < width; j++) {
                    System.arraycopy(p.draws()[j], 0, rows[j], at, p.draws()[j].length);
                }
                at += p.draws()[0].length;
            }
            AtomicOutput.writeText(dir + "/chain-" + chain._1() + ".csv",
                    CmdStanCsv.render(model, kernel, chain._1(), seed, warmup, names, rows), hadoop.value());
        });
    }

    /** Writes one round's draws (for a checkpoint) in the draws.parquet layout; {@code draw} counts within the round. */
    static void writeRoundDraws(JavaRDD<RoundResult> round, List<String> names, String path) {
        SparkSession spark = SparkSession.builder().getOrCreate();
        PlainParquet.writer(spark.createDataFrame(round.flatMap(r -> toRows(r, 0).iterator()), drawsSchema(names)))
                .mode(org.apache.spark.sql.SaveMode.Overwrite).parquet(path);
    }

    /** Reads a round written by {@link #writeRoundDraws} back into per-chain results (states are not kept). */
    static JavaRDD<RoundResult> readRoundDraws(String path, int round, int width) {
        SparkSession spark = SparkSession.builder().getOrCreate();
        // Only the chain id of the state is used downstream (outputs and diagnostics).
        return ParquetDraws.byChain(spark.read().parquet(path), width).map(chain -> new RoundResult(
                new org.sparkmc.core.mcmc.ChainState(chain._1(), new double[0], Double.NaN, null), round,
                chain._2(), 0, 0));
    }

    private static List<Row> toRows(RoundResult result, int drawOffset) {
        double[][] draws = result.draws();
        int n = draws.length == 0 ? 0 : draws[0].length;
        List<Row> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Object[] values = new Object[draws.length + 2];
            values[0] = (int) result.chain();
            values[1] = drawOffset + i + 1;
            for (int p = 0; p < draws.length; p++) {
                values[p + 2] = draws[p][i];
            }
            rows.add(RowFactory.create(values));
        }
        return rows;
    }

    /**
     * Bulk ESS per second of sampling, by parameter, with the seconds used: the wall-clock seconds of the sampling
     * rounds (each from its start to the end of its diagnostics; warm-up, start-up and writing excluded). Kept
     * apart from {@code parameters}, which depend only on the draws.
     */
    static Map<String, Object> efficiency(ChainsResult result) {
        double seconds = result.history().stream().filter(r -> r.phase().equals("sampling"))
                .mapToDouble(RoundSummary::seconds).sum();
        Map<String, Object> perSecond = new LinkedHashMap<>();
        for (FullParameterSummary p : result.parameters()) {
            perSecond.put(p.name(), seconds > 0 ? SummaryFiles.finite(p.essBulk() / seconds) : null);
        }
        Map<String, Object> block = new LinkedHashMap<>();
        block.put("sampling_seconds", seconds);
        block.put("ess_bulk_per_second", perSecond);
        return block;
    }

    /**
     * summary.json; {@code rj} (null unless a reversible-jump run) adds the {@code rjmcmc} block, {@code divergences}
     * (null unless the kernel reports {@code divergent__}) the count of divergent sampling transitions. Every
     * setting that changes the draws is recorded, so that the run can be given again.
     */
    static String summaryJson(ChainsConfig config, ChainsResult result, double[] acceptanceByChain,
            RjmcmcSummary rj, Long divergences, Options options) {
        Map<String, Object> top = new LinkedHashMap<>();
        top.put("job", "chains");
        top.put("model", config.modelName());
        top.put("model_params", options.modelParams());
        top.put("data", options.data());
        top.put("kernel", config.kernelName());
        top.put("scale", config.scale());
        top.put("adapt", config.adapt());
        top.put("target_accept", SummaryFiles.finite(config.targetAccept())); // null: the kernel's default
        top.put("round_size", config.roundSize());
        top.put("max_rounds", config.maxRounds());
        top.put("converged", result.converged());
        top.put("rounds", result.samplingRounds());
        top.put("warmup_rounds", config.warmupRounds());
        top.put("chains", config.chains());
        top.put("draws_per_chain", result.drawsPerChain());
        top.put("warmup_per_chain", config.warmup());
        top.put("seconds", result.seconds());
        top.put("seed", config.seed());
        top.put("acceptance", SummaryFiles.finite(result.acceptance()));
        List<Object> perChain = new ArrayList<>();
        for (double a : acceptanceByChain) {
            perChain.add(SummaryFiles.finite(a));
        }
        top.put("acceptance_per_chain", perChain);
        if (divergences != null) {
            top.put("divergences", divergences);
        }
        top.put("max_rhat", config.maxRhat());
        top.put("min_ess", config.minEss());
        top.put("parameters", SummaryFiles.json(result.parameters()));
        top.put("efficiency", efficiency(result));
        List<Map<String, Object>> rounds = new ArrayList<>();
        for (RoundSummary r : result.history()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("round", r.round());
            m.put("phase", r.phase());
            m.put("draws_per_chain", r.drawsPerChain());
            m.put("max_rhat", SummaryFiles.summaryJson(r.maxRhat()));
            m.put("min_ess_bulk", SummaryFiles.finite(r.minEssBulk()));
            m.put("min_ess_tail", SummaryFiles.finite(r.minEssTail()));
            m.put("acceptance", SummaryFiles.finite(r.acceptance()));
            m.put("seconds", r.seconds());
            rounds.add(m);
        }
        top.put("history", rounds);
        if (rj != null) {
            top.put("rjmcmc", rj.json());
        }
        return SummaryFiles.render(top);
    }
}
