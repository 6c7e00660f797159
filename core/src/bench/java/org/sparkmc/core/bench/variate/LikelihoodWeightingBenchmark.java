package org.sparkmc.core.bench.variate;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.sparkmc.core.bayesnet.BayesNet;
import org.sparkmc.core.bayesnet.BifReader;
import org.sparkmc.core.bayesnet.Evidence;
import org.sparkmc.core.bayesnet.LikelihoodWeighting;
import org.sparkmc.core.bayesnet.RejectionSampling;
import org.sparkmc.core.bayesnet.WeightedCounts;
import org.sparkmc.core.random.RandomStreams;

/**
 * Likelihood-weighting samples per second on one core on ALARM (shared data; system property sparkmc.shared.data,
 * default /work/shared/data): one invocation = one block of 100,000 samples with query LVFAILURE, the unit a
 * distributed job runs per task. Rejection sampling alongside for reference.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class LikelihoodWeightingBenchmark {
    private static final int BLOCK = 100_000;

    @Param({"", "HISTORY=TRUE,CVP=LOW"})
    public String evidence;

    private LikelihoodWeighting lw;
    private RejectionSampling rs;
    private RandomStreams streams;
    private long block;

    @Setup
    public void setUp() throws IOException {
        Path path = Path.of(System.getProperty("sparkmc.shared.data", "/work/shared/data"), "alarm", "alarm.bif");
        BayesNet net;
        try (Reader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            net = BifReader.read(r, path.toString());
        }
        Evidence e = Evidence.parse(net, evidence);
        int q = net.requireVariable("LVFAILURE");
        lw = LikelihoodWeighting.of(net, e, q);
        rs = RejectionSampling.of(net, e, q);
        streams = new RandomStreams(7);
    }

    @Benchmark
    @OperationsPerInvocation(BLOCK)
    public WeightedCounts likelihoodWeightingBlock() {
        return lw.block(streams, block++, BLOCK);
    }

    @Benchmark
    @OperationsPerInvocation(BLOCK)
    public WeightedCounts rejectionBlock() {
        return rs.block(streams, block++, BLOCK);
    }
}
