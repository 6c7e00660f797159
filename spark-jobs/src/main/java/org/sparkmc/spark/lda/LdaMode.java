package org.sparkmc.spark.lda;

import java.util.Locale;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.sparkmc.core.InvalidInputException;

/**
 * How the {@code lda} job distributes the topic–word table. {@link #AUTO} picks by the model's size against an
 * executor's heap ({@link #chooseForBytes}).
 */
public enum LdaMode {
    /** Broadcast while the table's copies fit half an executor's usable heap, model-parallel beyond. */
    AUTO,
    /** AD-LDA: every executor holds the whole table ({@link AdLdaSpark}). */
    BROADCAST,
    /** The table in P word slices that rotate over the document blocks ({@link ModelParallelSpark}). */
    MODEL_PARALLEL;

    /** What Spark reserves of every heap before its own memory pools (its {@code RESERVED_SYSTEM_MEMORY_BYTES}). */
    static final long SPARK_RESERVED_BYTES = 300L << 20;

    /** The mode named {@code auto}, {@code broadcast} or {@code model-parallel} (also with an underscore). */
    public static LdaMode parse(String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT).replace('_', '-')) {
            case "auto" -> AUTO;
            case "broadcast", "ad-lda" -> BROADCAST;
            case "model-parallel", "mp" -> MODEL_PARALLEL;
            default -> throw new InvalidInputException("--mode must be auto, broadcast or model-parallel, is '" + name
                    + "'");
        };
    }

    /** The name users write. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * What one executor holds of the topic–word table in the broadcast mode: the broadcast value and its serialised
     * pieces, 8·C bytes for C = Σ_w min(K, f_w) cells, and c running tasks' samplers of {@code samplerBytes} each
     * ({@code LdaKernel.samplerBytes}: 6·C for the sparse kernel, its rows and its move log, so (8 + 6c)·C in all;
     * BENCHMARKS.md, "Memory of the lda job", measured when the sampler took 4·C).
     */
    static long broadcastBytes(long cells, long samplerBytes, int coresPerExecutor) {
        return 8L * cells + coresPerExecutor * samplerBytes;
    }

    /**
     * The mode to run: this one unless it is {@link #AUTO}, which is {@link #MODEL_PARALLEL} when the broadcast
     * mode's tables, {@code broadcastBytes} on an executor, would take more than half of its heap after Spark's
     * reserve, else {@link #BROADCAST}.
     */
    LdaMode chooseForBytes(long broadcastBytes, long executorHeap) {
        if (this != AUTO) {
            return this;
        }
        long usable = Math.max(0, executorHeap - SPARK_RESERVED_BYTES);
        return broadcastBytes > usable / 2 ? MODEL_PARALLEL : BROADCAST;
    }

    /**
     * An executor's heap and task slots as the application is configured: in local mode the driver's JVM and its
     * threads, else {@code spark.executor.memory} (1g unless set) and {@code spark.executor.cores} (1 unless set).
     *
     * @param heapBytes the heap
     * @param cores the tasks it runs at once
     */
    record ExecutorShape(long heapBytes, int cores) {
        static ExecutorShape of(JavaSparkContext sc) {
            SparkConf conf = sc.getConf();
            if (sc.master().startsWith("local")) {
                return new ExecutorShape(Runtime.getRuntime().maxMemory(), Math.max(1, sc.defaultParallelism()));
            }
            return new ExecutorShape(conf.getSizeAsBytes("spark.executor.memory", "1g"),
                    conf.getInt("spark.executor.cores", 1));
        }
    }
}
