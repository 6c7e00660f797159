package org.sparkmc.core.bench.diagnostics;

import java.util.concurrent.TimeUnit;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.sparkmc.core.diagnostics.ParameterSummary;
import org.sparkmc.core.random.RandomStreams;

/**
 * Milliseconds for the chains job's per-round summary of one parameter ({@link ParameterSummary#of}: quantiles,
 * rank-normalised R-hat, bulk and tail ESS, MCSE) over 8 chains of AR(1) draws: φ = 0.3 stands for a well-mixing
 * chain (Geyer's truncation after a few lags), φ = 0.95 for a slow one (about 150 lags).
 *
 * <p>Usage, from the project root: {@code mvn -B -Pbench -pl core test-compile} then run JMH's main class
 * {@code org.openjdk.jmh.Main ParameterSummaryBenchmark} on core's bench classpath, or
 * {@code submit/bench core org.openjdk.jmh.Main ParameterSummaryBenchmark -f 1 -wi 2 -i 5}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ParameterSummaryBenchmark {
    @Param({"0.3", "0.95"})
    public double phi;

    @Param({"10000", "200000"})
    public int iterations;

    private double[][] draws;

    @Setup
    public void setUp() {
        UniformRandomProvider rng = new RandomStreams(1).stream("bench");
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        draws = new double[8][iterations];
        for (double[] chain : draws) {
            double v = 0.0;
            for (int i = 0; i < iterations; i++) {
                v = phi * v + normal.sample();
                chain[i] = v;
            }
        }
    }

    @Benchmark
    public ParameterSummary summary() {
        return ParameterSummary.of("x", draws);
    }
}
