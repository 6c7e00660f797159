package org.sparkmc.spark.bench;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.sparkmc.core.diagnostics.SummaryTasks;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.SparkSetup;
import org.sparkmc.spark.chains.ChainsConfig;
import org.sparkmc.spark.diagnose.ParameterResult;
import org.sparkmc.spark.sync.FrameReader;
import org.sparkmc.spark.sync.FrameWriter;
import org.sparkmc.spark.sync.RelayedStage;
import org.sparkmc.spark.sync.RoundClient;
import org.sparkmc.spark.sync.RoundRelay;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction1;

/**
 * A measurement prototype, not a job: what the {@code chains} job's rounds would cost in one barrier stage through a
 * {@link RoundRelay}, as {@code lda} and {@code smc} run theirs, instead of a Spark job per round. Each task runs every
 * round of its chains with {@link ChainRound#run} and the job's streams, and after each round sends its chains'
 * summarised rows (the parameters and lp__) to the driver in a relay frame ({@link FrameWriter}); the driver appends
 * them and runs the job's summaries on a pool of one thread per core (brief ones per round, full ones with plot data
 * after the last). It leaves out what a job needs: the driver's verdict back to the tasks (they run every round, as
 * issue 17's rows never converge), the rows kept for the outputs, checkpoints and retries. So its time bounds what the
 * design can give.
 *
 * <p>In one JVM, each rep runs the plain loop, {@code ChainsJob} and the prototype back to back (two untimed reps
 * first) and prints {@code PROTO rep=<r> peer=<s> job=<s> relayed=<s> …}. Usage, from the project root:
 * {@code RelayedChainsPrototype bimodal|eight_schools reps}
 */
public final class RelayedChainsPrototype {
    private static final int WARMUP_REPS = 2;

    private RelayedChainsPrototype() {
    }

    /** A task: all rounds of its partition's chains, each round's summarised rows sent through the relay. */
    private static final class Rounds
            extends AbstractFunction1<scala.collection.Iterator<ChainState>, scala.collection.Iterator<Integer>>
            implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String host;
        private final int port;
        private final ChainsConfig config;
        private final RandomStreams streams;
        private final int rows;

        Rounds(String host, int port, ChainsConfig config, RandomStreams streams, int rows) {
            this.host = host;
            this.port = port;
            this.config = config;
            this.streams = streams;
            this.rows = rows;
        }

        @Override
        public scala.collection.Iterator<Integer> apply(scala.collection.Iterator<ChainState> given) {
            BarrierTaskContext context = BarrierTaskContext.get();
            List<ChainState> states = new ArrayList<>();
            CollectionConverters.asJava(given).forEachRemaining(states::add);
            int size = config.roundSize();
            try (RoundClient client = new RoundClient(host, port, context.partitionId(),
                    context.stageAttemptNumber(), RoundRelay.TIMEOUT_MILLIS)) {
                for (int r = 1; r <= config.warmupRounds() + config.maxRounds(); r++) {
                    boolean warmup = r <= config.warmupRounds();
                    int sent = warmup ? 0 : rows;
                    FrameWriter frame = new FrameWriter(8 + states.size() * (8 + sent * (5 + 8 * size)));
                    frame.varint(states.size());
                    for (int c = 0; c < states.size(); c++) {
                        RoundResult result = ChainRound.run(config.target(), config.kernel(), states.get(c), r, size,
                                warmup, !warmup, streams);
                        states.set(c, result.state());
                        frame.varint((int) result.chain());
                        for (int p = 0; p < sent; p++) {
                            frame.reals(result.draws()[p]);
                        }
                    }
                    client.exchange(r - 1, frame.bytes());
                }
                client.done();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return CollectionConverters.asScala(Collections.<Integer>emptyIterator());
        }
    }

    /** Seconds for the prototype's run of {@code config}: the stage, and the driver's summaries of every round. */
    static double run(JavaSparkContext sc, ChainsConfig config) throws Exception {
        long t0 = System.nanoTime();
        RandomStreams streams = new RandomStreams(config.seed());
        List<ChainState> states = new ArrayList<>();
        for (long c = 1; c <= config.chains(); c++) {
            states.add(ChainRound.start(c, config.target(), config.kernel(), streams));
        }
        List<String> names = ChainRound.recordedNames(config.target(), config.kernel())
                .subList(0, config.target().parameterNames().size() + 1);
        int rows = names.size();
        int rounds = config.warmupRounds() + config.maxRounds();
        double[][][] draws = new double[rows][config.chains()][0];
        try (RoundRelay relay = RoundRelay.onDriver(sc.getConf(), config.partitions())) {
            ClassTag<Integer> tag = ClassTag$.MODULE$.apply(Integer.class);
            JavaRDD<Integer> stage = new JavaRDD<>(sc.parallelize(states, config.partitions()).rdd().barrier()
                    .mapPartitions(new Rounds(relay.host(), relay.port(), config, streams, rows), false, tag), tag);
            JavaFutureAction<Long> job = stage.countAsync();
            RelayedStage.run(relay, job, rounds, round -> {
                int r = round.round() + 1;
                if (r <= config.warmupRounds()) {
                    return;
                }
                for (byte[] bytes : round.frames()) {
                    FrameReader frame = new FrameReader(bytes);
                    for (int n = frame.varint(); n > 0; n--) {
                        int c = frame.varint() - 1;
                        for (int p = 0; p < rows; p++) {
                            double[] fresh = frame.reals();
                            double[] grown = Arrays.copyOf(draws[p][c], draws[p][c].length + fresh.length);
                            System.arraycopy(fresh, 0, grown, grown.length - fresh.length, fresh.length);
                            draws[p][c] = grown;
                        }
                    }
                    frame.requireEnd("a round's frame");
                }
                summarise(names, draws, r == rounds);
            });
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    /** The job's summaries of one round, all parameters' parts on one thread per core. */
    private static void summarise(List<String> names, double[][][] draws, boolean last) {
        ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
        try {
            List<CompletableFuture<?>> parts = new ArrayList<>();
            for (int p = 0; p < names.size(); p++) {
                parts.add(last ? ParameterResult.of(names.get(p), draws[p], pool)
                        : SummaryTasks.brief(names.get(p), draws[p], pool));
            }
            parts.forEach(CompletableFuture::join);
        } finally {
            pool.shutdownNow();
        }
    }

    public static void main(String[] args) throws Exception {
        String which = args.length > 0 ? args[0] : "bimodal";
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        // issue 17's rows: 8 chains, a warm-up round and 4 rounds of 50,000, never converging, 2 partitions
        ChainsConfig config = Issue17Rows.chainsConfig(which, 8, 50_000, 4);
        SparkSession spark = SparkSetup.session("relayed-chains-prototype", "local[2]");
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        try {
            for (int r = 0; r < WARMUP_REPS + reps; r++) {
                double peer = ChainsOverheadBenchmark.plainLoop(config);
                double job = ChainsOverheadBenchmark.sparkJob(sc, spark, config, false);
                double relayed = run(sc, config);
                System.out.printf(Locale.ROOT, "PROTO %s rep=%d peer=%.3f job=%.3f relayed=%.3f job_ratio=%.2f "
                        + "relayed_ratio=%.2f%n", r < WARMUP_REPS ? "untimed" : "timed", r, peer, job, relayed,
                        peer / job, peer / relayed);
            }
        } finally {
            spark.stop();
        }
    }
}
