package org.sparkmc.core.bench.variate;

import java.util.concurrent.TimeUnit;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.apache.commons.rng.sampling.distribution.BoxMullerNormalizedGaussianSampler;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.MarsagliaNormalizedGaussianSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.variate.BoxMullerSampler;
import org.sparkmc.core.variate.GammaRejectionSampler;
import org.sparkmc.core.variate.InverseCdfSampler;
import org.sparkmc.core.variate.MarsagliaPolarSampler;
import org.sparkmc.core.variate.MarsagliaTsangGammaSampler;

/**
 * Draws per microsecond of each named sampler next to the Commons RNG sampler for the same distribution, all on
 * the same generator (xoshiro256++ from RandomStreams). The parameter names distribution/implementation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class VariateSamplersBenchmark {
    @Param({"exp/ours-inverse-cdf", "exp/commons-ziggurat",
        "normal/ours-box-muller", "normal/ours-polar", "normal/commons-box-muller", "normal/commons-marsaglia",
        "normal/commons-ziggurat",
        "gamma2.5/ours-lecture-rejection", "gamma2.5/ours-marsaglia-tsang", "gamma2.5/commons",
        "gamma3/ours-sum-of-exponentials", "gamma3/commons",
        "gamma0.6/ours-lecture-rejection-boost", "gamma0.6/commons"})
    public String sampler;

    private ContinuousSampler s;

    @Setup
    public void setUp() {
        UniformRandomProvider rng = new RandomStreams(1).stream("bench");
        s = switch (sampler) {
            case "exp/ours-inverse-cdf" -> InverseCdfSampler.exponential(rng, 1);
            case "exp/commons-ziggurat" -> ZigguratSampler.Exponential.of(rng);
            case "normal/ours-box-muller" -> BoxMullerSampler.of(rng);
            case "normal/ours-polar" -> MarsagliaPolarSampler.of(rng);
            case "normal/commons-box-muller" -> BoxMullerNormalizedGaussianSampler.of(rng);
            case "normal/commons-marsaglia" -> MarsagliaNormalizedGaussianSampler.of(rng);
            case "normal/commons-ziggurat" -> ZigguratSampler.NormalizedGaussian.of(rng);
            case "gamma2.5/ours-lecture-rejection" -> GammaRejectionSampler.of(rng, 2.5, 1);
            case "gamma2.5/ours-marsaglia-tsang" -> MarsagliaTsangGammaSampler.of(rng, 2.5, 1);
            case "gamma2.5/commons" -> AhrensDieterMarsagliaTsangGammaSampler.of(rng, 2.5, 1);
            case "gamma3/ours-sum-of-exponentials" -> GammaRejectionSampler.of(rng, 3, 1);
            case "gamma3/commons" -> AhrensDieterMarsagliaTsangGammaSampler.of(rng, 3, 1);
            case "gamma0.6/ours-lecture-rejection-boost" -> GammaRejectionSampler.of(rng, 0.6, 1);
            case "gamma0.6/commons" -> AhrensDieterMarsagliaTsangGammaSampler.of(rng, 0.6, 1);
            default -> throw new IllegalArgumentException(sampler);
        };
    }

    @Benchmark
    public double sample() {
        return s.sample();
    }
}
