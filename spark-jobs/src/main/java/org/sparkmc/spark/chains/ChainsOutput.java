package org.sparkmc.spark.chains;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.sparkmc.core.diagnostics.ParameterSummary;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.spark.io.AtomicOutput;

/**
 * Writes a {@code chains} run: {@code draws.parquet} (chain, draw, one column per parameter; chains and draws
 * numbered from 1), {@code summary.json} and {@code summary.csv}, committed atomically.
 */
public final class ChainsOutput {
    static final String[] CSV_COLUMNS = {"name", "mean", "sd", "q5", "q50", "q95", "rhat", "ess_bulk", "ess_tail",
        "mcse_mean"};

    private ChainsOutput() {
    }

    public static void write(SparkSession spark, AtomicOutput out, ChainsJob job, ChainsConfig config,
            ChainsResult result) {
        writeDraws(spark, out, job, config);
        out.writeText("summary.json", summaryJson(config, result));
        out.writeText("summary.csv", summaryCsv(result.parameters()));
    }

    static StructType drawsSchema(List<String> names) {
        List<StructField> fields = new ArrayList<>();
        fields.add(DataTypes.createStructField("chain", DataTypes.IntegerType, false));
        fields.add(DataTypes.createStructField("draw", DataTypes.IntegerType, false));
        for (String name : names) {
            fields.add(DataTypes.createStructField(name, DataTypes.DoubleType, false));
        }
        return DataTypes.createStructType(fields);
    }

    private static void writeDraws(SparkSession spark, AtomicOutput out, ChainsJob job, ChainsConfig config) {
        List<JavaRDD<RoundResult>> rounds = job.samplingRounds();
        StructType schema = drawsSchema(job.parameterNames());
        int roundSize = config.roundSize();
        int firstSamplingRound = config.warmupRounds() + 1;
        JavaRDD<Row> rows = spark.emptyDataFrame().javaRDD();
        for (JavaRDD<RoundResult> round : rounds) {
            rows = rows.union(round.flatMap(r -> toRows(r, (r.round() - firstSamplingRound) * roundSize).iterator()));
        }
        spark.sparkContext().setJobDescription("chains: write draws.parquet");
        spark.createDataFrame(rows, schema).coalesce(config.partitions()).write()
                .parquet(out.staged("draws.parquet"));
        job.release();
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

    static String summaryJson(ChainsConfig config, ChainsResult result) {
        Map<String, Object> top = new LinkedHashMap<>();
        top.put("job", "chains");
        top.put("model", config.modelName());
        top.put("kernel", config.kernelName());
        top.put("converged", result.converged());
        top.put("rounds", result.samplingRounds());
        top.put("warmup_rounds", config.warmupRounds());
        top.put("chains", config.chains());
        top.put("draws_per_chain", result.drawsPerChain());
        top.put("warmup_per_chain", config.warmup());
        top.put("seconds", result.seconds());
        top.put("seed", config.seed());
        top.put("acceptance", finiteOrNull(result.acceptance()));
        top.put("max_rhat", config.maxRhat());
        top.put("min_ess", config.minEss());
        List<Map<String, Object>> parameters = new ArrayList<>();
        for (ParameterSummary s : result.parameters()) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("name", s.name());
            p.put("mean", finiteOrNull(s.mean()));
            p.put("sd", finiteOrNull(s.sd()));
            p.put("q5", finiteOrNull(s.q5()));
            p.put("q50", finiteOrNull(s.q50()));
            p.put("q95", finiteOrNull(s.q95()));
            p.put("rhat", finiteOrNull(s.rhat()));
            p.put("ess_bulk", finiteOrNull(s.essBulk()));
            p.put("ess_tail", finiteOrNull(s.essTail()));
            p.put("mcse_mean", finiteOrNull(s.mcseMean()));
            parameters.add(p);
        }
        top.put("parameters", parameters);
        List<Map<String, Object>> rounds = new ArrayList<>();
        for (RoundSummary r : result.history()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("round", r.round());
            m.put("phase", r.phase());
            m.put("draws_per_chain", r.drawsPerChain());
            m.put("max_rhat", finiteOrNull(r.maxRhat()));
            m.put("min_ess_bulk", finiteOrNull(r.minEssBulk()));
            m.put("min_ess_tail", finiteOrNull(r.minEssTail()));
            m.put("acceptance", finiteOrNull(r.acceptance()));
            m.put("seconds", r.seconds());
            rounds.add(m);
        }
        top.put("history", rounds);
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(top) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render summary.json", e);
        }
    }

    static String summaryCsv(List<ParameterSummary> summaries) {
        StringBuilder csv = new StringBuilder(String.join(",", CSV_COLUMNS)).append('\n');
        for (ParameterSummary s : summaries) {
            csv.append(quote(s.name()));
            for (double v : new double[] {s.mean(), s.sd(), s.q5(), s.q50(), s.q95(), s.rhat(), s.essBulk(),
                s.essTail(), s.mcseMean()}) {
                csv.append(',').append(Double.isNaN(v) ? "NA" : String.format(Locale.ROOT, "%.10g", v));
            }
            csv.append('\n');
        }
        return csv.toString();
    }

    private static String quote(String s) {
        return s.contains(",") || s.contains("\"") ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }

    private static Object finiteOrNull(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
