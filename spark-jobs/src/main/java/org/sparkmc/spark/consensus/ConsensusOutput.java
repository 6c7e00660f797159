package org.sparkmc.spark.consensus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.sparkmc.core.consensus.ShardCheck;
import org.sparkmc.core.consensus.ShardSampler;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.spark.diagnose.SummaryFiles;
import org.sparkmc.spark.io.AtomicOutput;
import org.sparkmc.spark.io.ParquetDraws;
import org.sparkmc.spark.io.PlainParquet;

/**
 * Writes a {@code consensus} run, committed atomically as the {@code chains} job's outputs are:
 * {@code draws.parquet} (the combined draws: chain, draw, one column per parameter), {@code shard_draws.parquet}
 * (each shard's own draws: shard, chain, draw, parameters, lp__), {@code summary.json} and {@code summary.csv} (the
 * combined draws, as {@code chains} writes them), {@code shard_summary.csv} (each shard's parameters, R-hat and ESS
 * over its chains) and {@code report.html}. Shards are numbered from 0, chains and draws from 1.
 */
final class ConsensusOutput {
    private ConsensusOutput() {
    }

    /**
     * What summary.json records of how the table was read and the model built, beyond the config, so that the run
     * can be given again.
     *
     * @param format          the table's format, csv or parquet
     * @param response        --response
     * @param features        the feature columns the model was built for, in order
     * @param sigmaPriorScale --sigma-prior-scale for the gaussian family, else null
     */
    record Given(String format, String response, List<String> features, Double sigmaPriorScale) {
    }

    static void write(SparkSession spark, AtomicOutput out, ConsensusConfig config, ConsensusResult result,
            Given given) {
        spark.sparkContext().setJobDescription("consensus: write draws.parquet");
        List<Row> rows = new ArrayList<>();
        for (int c = 0; c < result.combined().length; c++) {
            addRows(rows, null, c, result.combined()[c]);
        }
        PlainParquet.writer(spark.createDataFrame(rows, ParquetDraws.schema(List.of("chain"), result.names()))
                .coalesce(1)).parquet(out.staged("draws.parquet"));
        spark.sparkContext().setJobDescription("consensus: write shard_draws.parquet");
        List<Row> shardRows = new ArrayList<>();
        for (int s = 0; s < result.shardDraws().length; s++) {
            for (int c = 0; c < result.shardDraws()[s].length; c++) {
                addRows(shardRows, s, c, result.shardDraws()[s][c]);
            }
        }
        List<String> withLp = new ArrayList<>(result.names());
        withLp.add("lp__");
        PlainParquet.writer(spark.createDataFrame(shardRows, ParquetDraws.schema(List.of("shard", "chain"), withLp))
                .coalesce(1)).parquet(out.staged("shard_draws.parquet"));
        out.writeText("summary.json", summaryJson(config, result, given));
        out.writeText("summary.csv", SummaryFiles.csv(result.parameters()));
        out.writeText("shard_summary.csv", shardCsv(result));
        out.writeText("report.html", ConsensusReport.render(config, result));
    }

    /** Rows of one chain, [parameter][iteration]; {@code shard} null for the combined draws. */
    private static void addRows(List<Row> rows, Integer shard, int chain, double[][] draws) {
        int keys = shard == null ? 1 : 2;
        for (int i = 0; i < draws[0].length; i++) {
            Object[] values = new Object[keys + 1 + draws.length];
            if (shard != null) {
                values[0] = shard;
            }
            values[keys - 1] = chain + 1;
            values[keys] = i + 1;
            for (int p = 0; p < draws.length; p++) {
                values[keys + 1 + p] = draws[p][i];
            }
            rows.add(RowFactory.create(values));
        }
    }

    static String shardCsv(ConsensusResult result) {
        StringBuilder csv = new StringBuilder("shard,rows,").append(String.join(",", SummaryFiles.COLUMNS.subList(0,
                10))).append('\n');
        for (int s = 0; s < result.shardSummaries().size(); s++) {
            for (FullParameterSummary p : result.shardSummaries().get(s)) {
                csv.append(s).append(',').append(result.shards().get(s).rows()).append(',')
                        .append(SummaryFiles.csvField(p.name()));
                for (double v : new double[] {p.mean(), p.sd(), p.q5(), p.median(), p.q95(), p.rhat(), p.essBulk(),
                    p.essTail(), p.mcseMean()}) {
                    csv.append(',').append(SummaryFiles.summaryNumber(v));
                }
                csv.append('\n');
            }
        }
        return csv.toString();
    }

    static String summaryJson(ConsensusConfig config, ConsensusResult result, Given given) {
        ShardSampler.Settings s = config.sampling();
        Map<String, Object> top = new LinkedHashMap<>();
        top.put("job", "consensus");
        top.put("data", config.data());
        top.put("format", given.format());
        top.put("response", given.response());
        top.put("features", given.features());
        top.put("model", config.modelName());
        top.put("prior_sd", config.priorSd());
        top.put("sigma_prior_scale", given.sigmaPriorScale());
        top.put("shards", config.shards());
        top.put("kernel", s.kernel());
        top.put("scale", SummaryFiles.finite(s.scale())); // null: the kernel's automatic scale
        top.put("chains_per_shard", s.chains());
        top.put("warmup_per_chain", s.warmup());
        top.put("draws_per_chain", s.iterations());
        top.put("combiner", config.combiner());
        top.put("combiner_acceptance", SummaryFiles.finite(result.combinerAcceptance()));
        top.put("seed", config.seed());
        top.put("seconds", result.seconds());
        top.put("sampling_seconds", result.samplingSeconds());
        top.put("disagreement", check(result.disagreement(), "disagree", "largest_z"));
        top.put("skew", check(result.skew(), "skewed", "largest_distance"));
        top.put("max_shard_rhat", SummaryFiles.summaryJson(result.maxShardRhat()));
        top.put("min_shard_ess_bulk", SummaryFiles.finite(result.minShardEss()));
        top.put("parameters", SummaryFiles.json(result.parameters()));
        List<Map<String, Object>> shards = new ArrayList<>();
        for (int k = 0; k < result.shards().size(); k++) {
            ShardSampler.Result r = result.shards().get(k);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("shard", r.shard());
            m.put("rows", r.rows());
            m.put("acceptance", SummaryFiles.finite((double) r.accepted() / r.proposed()));
            m.put("seconds", r.seconds());
            m.put("parameters", SummaryFiles.json(result.shardSummaries().get(k)));
            shards.add(m);
        }
        top.put("shard_results", shards);
        return SummaryFiles.render(top);
    }

    private static Map<String, Object> check(ShardCheck c, String flag, String largest) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(flag, c.warn());
        m.put(largest, c.largest());
        m.put("shard", c.shard());
        m.put("coordinate", c.coordinate());
        m.put("threshold", c.threshold());
        m.put("message", c.message());
        return m;
    }
}
