package org.sparkmc.spark.smc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.sparkmc.core.smc.StepSummary;
import org.sparkmc.core.smc.models.KalmanFilter;
import org.sparkmc.spark.diagnose.SummaryFiles;
import org.sparkmc.spark.io.AtomicOutput;

/**
 * Writes an {@code smc} run, committed atomically: {@code filter.parquet} (a part file per 4,096 steps) and
 * {@code filter.csv} (one row per time step: step, t, mean_&lt;x&gt; and sd_&lt;x&gt; per state component, ess,
 * resampled, log_likelihood_increment, observed, y_&lt;column&gt; per observation column), {@code summary.json} and
 * {@code report.html}.
 */
public final class SmcOutput {
    /** Steps per task (and part file) of {@code filter.parquet}. */
    static final int ROWS_PER_TASK = 4096;

    private SmcOutput() {
    }

    /**
     * What summary.json records of how the run was asked for beyond its config, so that it can be given again.
     *
     * @param modelParams the model's parameters as it used them, by name
     * @param timeColumn  --time-column, or null for the default (a column named t or time)
     */
    public record Given(Map<String, Object> modelParams, String timeColumn) {
    }

    public static void write(SparkSession spark, AtomicOutput out, SmcConfig config, SmcResult result,
            Given given) {
        KalmanFilter.Result kalman = kalman(config, result);
        List<String> columns = columns(config, result);
        spark.sparkContext().setJobDescription("smc: write filter.parquet");
        // The rows are on the driver, and a task carries the rows it writes: a task per ROWS_PER_TASK steps keeps each
        // below Spark's 1 MB task-size warning (one file for up to that many steps; a 10^6-step run made one 89 MB task).
        List<Row> rows = rows(result);
        int tasks = Math.max(1, (rows.size() + ROWS_PER_TASK - 1) / ROWS_PER_TASK);
        spark.createDataFrame(JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(rows, tasks),
                schema(columns)).write().parquet(out.staged("filter.parquet"));
        out.writeText("filter.csv", csv(columns, result));
        out.writeText("summary.json", summaryJson(config, result, kalman, given));
        out.writeText("report.html", SmcReport.render(config, result, kalman));
    }

    /** The exact Kalman filter of the observations for a linear-Gaussian model, else null. */
    static KalmanFilter.Result kalman(SmcConfig config, SmcResult result) {
        if (config.model().linearGaussian() == null || result.rows().isEmpty()) {
            return null;
        }
        double[][] y = new double[result.steps()][];
        for (int i = 0; i < y.length; i++) {
            y[i] = result.rows().get(i).observation();
        }
        return KalmanFilter.run(config.model().linearGaussian(), y);
    }

    static List<String> columns(SmcConfig config, SmcResult result) {
        List<String> c = new ArrayList<>(List.of("step", "t"));
        for (String x : config.model().stateNames()) {
            c.add("mean_" + x);
            c.add("sd_" + x);
        }
        c.addAll(List.of("ess", "resampled", "log_likelihood_increment", "observed"));
        for (String y : result.observationColumns()) {
            c.add("y_" + y);
        }
        return c;
    }

    static StructType schema(List<String> columns) {
        List<StructField> fields = new ArrayList<>();
        for (String name : columns) {
            fields.add(DataTypes.createStructField(name, switch (name) {
                case "step" -> DataTypes.IntegerType;
                case "resampled", "observed" -> DataTypes.BooleanType;
                default -> DataTypes.DoubleType;
            }, name.startsWith("y_")));
        }
        return DataTypes.createStructType(fields);
    }

    private static List<Object> values(StepRow r) {
        StepSummary s = r.summary();
        List<Object> v = new ArrayList<>();
        v.add(s.step());
        v.add(r.time());
        for (int k = 0; k < s.mean().length; k++) {
            v.add(s.mean()[k]);
            v.add(Math.sqrt(s.variance()[k]));
        }
        v.add(s.ess());
        v.add(s.resampled());
        v.add(s.logLikelihoodIncrement());
        v.add(s.observed());
        for (double y : r.observation()) {
            v.add(Double.isNaN(y) ? null : y);
        }
        return v;
    }

    static List<Row> rows(SmcResult result) {
        List<Row> rows = new ArrayList<>(result.steps());
        for (StepRow r : result.rows()) {
            rows.add(RowFactory.create(values(r).toArray()));
        }
        return rows;
    }

    /** CSV with a header; doubles in Java's round-trip form, missing observations as NA. */
    static String csv(List<String> columns, SmcResult result) {
        StringBuilder csv = new StringBuilder(String.join(",", columns)).append('\n');
        for (StepRow r : result.rows()) {
            List<Object> v = values(r);
            for (int i = 0; i < v.size(); i++) {
                if (i > 0) {
                    csv.append(',');
                }
                csv.append(v.get(i) == null ? "NA" : v.get(i).toString());
            }
            csv.append('\n');
        }
        return csv.toString();
    }

    static String summaryJson(SmcConfig config, SmcResult result, KalmanFilter.Result kalman, Given given) {
        Map<String, Object> top = new LinkedHashMap<>();
        top.put("job", "smc");
        top.put("model", config.model().name());
        top.put("model_params", given.modelParams());
        top.put("filter", config.model().filter());
        top.put("mode", result.online() ? "online" : "batch");
        top.put("data", result.source());
        top.put("time_column", given.timeColumn());
        top.put("log_likelihood", SummaryFiles.finite(result.logLikelihood()));
        top.put("kalman_log_likelihood", kalman == null ? null : kalman.logLikelihood());
        top.put("particles", config.particles());
        top.put("partitions", config.partitions());
        top.put("block_size", config.options().blockSize());
        top.put("blocks", config.blocks());
        top.put("resampling", config.options().scheme().name().toLowerCase(Locale.ROOT));
        top.put("ess_threshold", config.options().essThreshold());
        top.put("missing", config.options().missing().name().toLowerCase(Locale.ROOT));
        top.put("seed", config.seed());
        top.put("seconds", result.seconds());
        top.put("steps", result.steps());
        top.put("observed_steps", result.rows().stream().filter(r -> r.summary().observed()).count());
        top.put("resampling_count", result.resamplings());
        top.put("min_ess", SummaryFiles.finite(result.rows().stream().mapToDouble(r -> r.summary().ess()).min()
                .orElse(Double.NaN)));
        top.put("state_components", config.model().stateNames());
        top.put("observation_columns", result.observationColumns());
        return SummaryFiles.render(top);
    }
}
