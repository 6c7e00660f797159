package org.sparkmc.spark.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SizeEstimator;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;
import org.sparkmc.spark.SparkSetup;
import org.sparkmc.spark.diagnose.ByParameter;
import org.sparkmc.spark.io.ChainSeries;

/**
 * The full posterior summary of C chains × P parameters × S draws (AR(1) series made on the executors and cached
 * before timing) computed (a) by parameter on the executors, the driver receiving only summaries, and (b) by
 * collecting every draw to the driver and summarising in one JVM. Prints seconds and what the driver holds.
 *
 * <p>Usage: {@code BENCH_JAVA_OPTS=-Xmx14g submit/bench spark-jobs
 * org.sparkmc.spark.bench.DiagnosticsAtScaleBenchmark [chains] [parameters] [draws]}
 */
public final class DiagnosticsAtScaleBenchmark {

    public static void main(String[] args) {
        int chains = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int parameters = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int draws = args.length > 2 ? Integer.parseInt(args[2]) : 2000;
        // The collect baseline needs the driver to accept 3.2 GB of task results (the default cap is 1 GiB).
        System.setProperty("spark.driver.maxResultSize", "0");
        SparkSession spark = SparkSetup.session("diagnostics-at-scale", "local[2]");
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        JavaRDD<ChainSeries> series = series(sc, chains, parameters, draws);
        long t0 = System.nanoTime();
        long count = series.count();
        double generate = (System.nanoTime() - t0) / 1e9;

        t0 = System.nanoTime();
        List<FullParameterSummary> distributed = ByParameter.map(series, 2 * sc.defaultParallelism(),
                (p, d) -> FullParameterSummary.of("p" + p, d));
        double distributedSeconds = (System.nanoTime() - t0) / 1e9;
        long distributedDriverBytes = SizeEstimator.estimate(distributed);

        t0 = System.nanoTime();
        List<ChainSeries> collected = series.collect();
        double[][][] byParameter = new double[parameters][chains][];
        for (ChainSeries s : collected) {
            byParameter[s.parameter()][s.chain() - 1] = s.values();
        }
        long collectedDriverBytes = 8L * chains * parameters * draws;
        List<FullParameterSummary> inOneJvm = new ArrayList<>();
        for (int p = 0; p < parameters; p++) {
            inOneJvm.add(FullParameterSummary.of("p" + p, byParameter[p]));
        }
        double collectSeconds = (System.nanoTime() - t0) / 1e9;
        boolean same = distributed.equals(inOneJvm);

        System.out.printf("%n%,d chains × %,d parameters × %,d draws (%,d series, %.1f GB of draws; made and cached "
                + "in %.0f s); local[2]; %s%n%n", chains, parameters, draws, count, collectedDriverBytes / 1e9,
                generate, java.time.LocalDate.now());
        System.out.println("| method | seconds | driver holds | results identical |");
        System.out.println("|---|---|---|---|");
        System.out.printf("| by parameter on the executors (ByParameter) | %.0f | %,d bytes (%d summaries) | %s |%n",
                distributedSeconds, distributedDriverBytes, distributed.size(), same);
        System.out.printf("| collect the draws, summarise in one JVM | %.0f | %,d bytes of draws | %s |%n",
                collectSeconds, collectedDriverBytes, same);
        Arrays.fill(byParameter, null);
        spark.stop();
    }

    /**
     * C chains × P parameters of S draws each: AR(1) series (φ = 0.9 · (p mod 10) / 10) made on the executors in 16
     * partitions and persisted (serialised, memory and disk); not yet computed.
     */
    static JavaRDD<ChainSeries> series(JavaSparkContext sc, int chains, int parameters, int draws) {
        List<Integer> ids = new ArrayList<>();
        for (int c = 1; c <= chains; c++) {
            ids.add(c);
        }
        return sc.parallelize(ids, 16).flatMap(c -> {
            List<ChainSeries> out = new ArrayList<>(parameters);
            for (int p = 0; p < parameters; p++) {
                Rng rng = new RandomStreams(1).rng("bench", p, c);
                double phi = 0.9 * (p % 10) / 10;
                double[] x = new double[draws];
                double prev = rng.normal();
                for (int i = 0; i < draws; i++) {
                    prev = phi * prev + Math.sqrt(1 - phi * phi) * rng.normal();
                    x[i] = prev;
                }
                out.add(new ChainSeries(p, c, 0, x));
            }
            return out.iterator();
        }).persist(StorageLevel.MEMORY_AND_DISK_SER());
    }
}
