package org.sparkmc.spark.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.RDDInfo;
import org.sparkmc.core.catalog.SmcModelCatalog;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.ObservationCsv;
import org.sparkmc.core.smc.ParticleSystem;
import org.sparkmc.core.smc.SmcModel;
import org.sparkmc.core.smc.SmcOptions;
import org.sparkmc.core.smc.models.KalmanFilter;
import org.sparkmc.core.smc.models.LocalLevelModel;
import org.sparkmc.spark.SparkSetup;
import org.sparkmc.spark.smc.SmcConfig;
import org.sparkmc.spark.smc.SmcJob;

/**
 * The smc job against core's single-machine filter on the Nile local-level model (bootstrap filter, systematic
 * resampling at ESS &lt; N/2, blocks of 4096): particle-steps per second of {@link ParticleSystem} on one thread and
 * of the Spark job on local[2] (2 partitions), for growing N (median of 3 timed runs after an untimed one for
 * N ≤ 10^6, one run beyond); the Spark per-step overhead (N = 1,000 in 2 blocks, with τ = 0.5 and with
 * resampling at every step); and the largest N, with the cached particles' size and the JVM's peak heap.
 *
 * <p>Usage: {@code submit/bench spark-jobs org.sparkmc.spark.bench.SmcBenchmark [N,N,...] [largestN] [largestSteps]}
 */
public final class SmcBenchmark {
    static double[][] nile;

    public static void main(String[] args) throws Exception {
        long[] sizes = Arrays.stream((args.length > 0 ? args[0] : "10000,100000,1000000").split(","))
                .mapToLong(Long::parseLong).toArray();
        int largest = args.length > 1 ? Integer.parseInt(args[1]) : 10_000_000;
        int largestSteps = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        loadNile();
        SparkSession spark = SparkSetup.session("smc-benchmark", "local[2]");
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        double kalman = KalmanFilter.run(LocalLevelModel.nile().asLinearGaussian(), nile).logLikelihood();
        System.out.printf(Locale.ROOT, "%nNile local-level, bootstrap, systematic, τ = 0.5, block size 4096, 100 steps;"
                + " core on 1 thread, Spark on local[2] with 2 partitions; max heap %.1f GiB; %s%n%n",
                Runtime.getRuntime().maxMemory() / Math.pow(2, 30), java.time.LocalDate.now());
        System.out.println("| particles | core, 1 thread (particle-steps/s) | Spark local[2] (particle-steps/s) | "
                + "Spark / core | Spark per core / core | log p̂ − Kalman |");
        System.out.println("|---|---|---|---|---|---|");
        for (long n : sizes) {
            int runs = n <= 1_000_000 ? 3 : 1;
            double core = time(runs, () -> core((int) n, 100));
            double[] ll = new double[1];
            double job = time(runs, () -> spark(sc, (int) n, 100, 0.5, 4096, ll));
            System.out.printf(Locale.ROOT, "| %,d | %,.0f | %,.0f | %.2f | %.2f | %+.3f |%n", n, n * 100 / core,
                    n * 100 / job, core / job, core / job / 2, ll[0] - kalman);
        }
        double[] ignored = new double[1];
        double lazy = time(5, () -> spark(sc, 1000, 100, 0.5, 500, ignored)) / 100 * 1000;
        double always = time(5, () -> spark(sc, 1000, 100, 1.0, 500, ignored)) / 100 * 1000;
        System.out.printf(Locale.ROOT, "%nSpark per-step overhead (N = 1,000 in 2 blocks, 2 partitions, median of 5): "
                + "%.1f ms/step with τ = 0.5, %.1f ms/step resampling every step%n", lazy, always);

        resetPeakHeap();
        long t0 = System.nanoTime();
        SmcJob job = new SmcJob(sc, config(largest, 0.5, 4096));
        job.initialize();
        long cached = 0;
        for (int n = 0; n < largestSteps; n++) {
            job.step(nile[n]);
            for (RDDInfo info : sc.sc().getRDDStorageInfo()) {
                cached = Math.max(cached, info.memSize() + info.diskSize());
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        job.release();
        System.out.printf(Locale.ROOT, "Largest run: %,d particles, %d steps in %.1f s (%,.0f particle-steps/s, %d "
                + "resamplings); largest cached particle RDD %.0f MiB; heap pools' peaks summed %.0f MiB (an upper "
                + "bound of the peak heap; driver and executors share one JVM in local mode)%n", largest, largestSteps, seconds, (double) largest * largestSteps
                / seconds, job.resamplings(), cached / Math.pow(2, 20), peakHeap() / Math.pow(2, 20));
        spark.stop();
    }

    /** Reads the Nile series ({@code data/nile/nile.csv}, from the project root) into {@link #nile}. */
    static void loadNile() throws java.io.IOException {
        Path file = Path.of("data/nile/nile.csv");
        nile = ObservationCsv.read(Files.newBufferedReader(file), file.toString(),
                ObservationCsv.Options.defaults().withTimeColumn("year")).values();
    }

    interface Timed {
        double seconds() throws Exception;
    }

    private static double time(int runs, Timed run) throws Exception {
        if (runs > 1) {
            run.seconds();
        }
        double[] s = new double[runs];
        for (int i = 0; i < runs; i++) {
            s[i] = run.seconds();
        }
        Arrays.sort(s);
        return s[runs / 2];
    }

    static SmcConfig config(int n, double tau, int blockSize) {
        SmcModel model = SmcModelCatalog.create("local-level", "bootstrap", ModelParameters.empty());
        return new SmcConfig(model, n, SmcOptions.defaults().withEssThreshold(tau).withBlockSize(blockSize), 2, 1,
                25, null);
    }

    static double core(int n, int steps) {
        long t0 = System.nanoTime();
        ParticleSystem ps = new ParticleSystem(config(n, 0.5, 4096).model().kernel(), n,
                SmcOptions.defaults(), new RandomStreams(1));
        for (int i = 0; i < steps; i++) {
            ps.step(nile[i]);
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    static double spark(JavaSparkContext sc, int n, int steps, double tau, int blockSize, double[] ll) {
        long t0 = System.nanoTime();
        SmcJob job = new SmcJob(sc, config(n, tau, blockSize));
        job.initialize();
        List<double[]> ys = Arrays.asList(nile).subList(0, steps);
        for (int i = 0; i < steps; ) { // as the smc command: nothing reads the particles after the last step
            i += job.advance(ys.subList(i, steps), s -> { }, true).size();
        }
        job.release();
        ll[0] = job.logLikelihood();
        return (System.nanoTime() - t0) / 1e9;
    }

    private static void resetPeakHeap() {
        System.gc();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    private static long peakHeap() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        return sum;
    }
}
