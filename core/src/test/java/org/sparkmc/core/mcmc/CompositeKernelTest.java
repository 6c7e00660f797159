package org.sparkmc.core.mcmc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.catalog.KernelCatalog;
import org.sparkmc.core.model.BimodalMixture;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.rjmcmc.RjmcmcKernel;

/**
 * Cycles and mixtures of kernels: they sample the target (50 × chi-square at 1%, fail if more than 3 fail: ≈ 0.16%
 * false alarms per kernel, ≈ 0.3% for the test, which checks a cycle and a mixture), each part adapts during warm-up
 * only, and the registry builds them from names.
 */
class CompositeKernelTest {
    private final CorrelatedNormal target = new CorrelatedNormal(1, 3, 0.9);
    private final NormalDistribution x2 = NormalDistribution.of(0, 3);

    @Test
    void aCycleAndAMixtureSampleTheTarget() {
        Kernel<?> cycle = KernelCatalog.create("cycle(am, slice, gibbs)",
                new KernelSettings(0.5, true, Double.NaN));
        assertInstanceOf(CycleKernel.class, cycle);
        int failedCycle = RunChains.failedRepetitions(target, cycle, 1, x2::cumulativeProbability, 50, 1000, 2000, 3,
                61);
        assertTrue(failedCycle <= 3, failedCycle + " of 50 failed");
        Kernel<?> mixture = KernelCatalog.create("mixture(3*rwm, 1*slice-doubling)",
                new KernelSettings(0.5, true, Double.NaN));
        assertInstanceOf(MixtureKernel.class, mixture);
        int failed = RunChains.failedRepetitions(target, mixture, 1, x2::cumulativeProbability, 50, 1000, 2000, 25, 62);
        assertTrue(failed <= 3, failed + " of 50 failed");
    }

    @Test
    void everyPartAdaptsInWarmupOnlyAndKeepsItsOwnTuning() {
        Kernel<?> cycle = KernelCatalog.create("cycle(rwm, am, slice)",
                new KernelSettings(0.1, true, Double.NaN));
        RandomStreams streams = new RandomStreams(8);
        ChainState s = ChainRound.start(1, target, cycle, streams);
        List<?> initial = (List<?>) cycle.codec().decode(cycle.encodeState(s), 2);
        s = ChainRound.run(target, cycle, s, 1, 3000, true, false, streams).state();
        List<?> parts = (List<?>) s.kernelState();
        assertNotEquals(initial.get(0), parts.get(0), "rwm scale adapted");
        assertEquals(initial.get(1).getClass(), parts.get(1).getClass());
        assertNotEquals(initial.get(1), parts.get(1), "am adapted");
        assertNotEquals(initial.get(2), parts.get(2), "slice width adapted");
        double[] adapted = cycle.encodeState(s);
        s = ChainRound.run(target, cycle, s, 2, 3000, false, true, streams).state();
        assertArrayEquals(adapted, cycle.encodeState(s), 0.0, "all parts frozen after warm-up");
    }

    @Test
    void theRegistryKnowsEveryKernelAndExplainsMistakes() {
        KernelSettings s = new KernelSettings(1, true, Double.NaN, 2);
        // Every registry name builds its own kind of kernel (the two Laplace-based ones need a model that has one).
        Target logistic = SimulationBasedCalibrationTest.logistic(new RandomStreams(3).rng("data")).posterior();
        Map<String, Class<?>> expected = Map.ofEntries(Map.entry("rwm", AdaptiveMetropolis.class),
                Map.entry("am", AdaptiveMetropolis.class), Map.entry("slice", SliceSampler.class),
                Map.entry("slice-doubling", SliceSampler.class), Map.entry("gibbs", GibbsSampler.class),
                Map.entry("gibbs-random", GibbsSampler.class), Map.entry("colour-gibbs", ColourGibbs.class),
                Map.entry("nuts", Nuts.class), Map.entry("rjmcmc", RjmcmcKernel.class),
                Map.entry("independence", MetropolisHastings.class),
                Map.entry("laplace-rwm", MetropolisHastings.class));
        assertEquals(KernelCatalog.names(), expected.keySet());
        expected.forEach((name, type) -> {
            Kernel<?> k = KernelCatalog.create(name, s, name.equals("independence") || name.equals("laplace-rwm")
                    ? logistic : null);
            assertInstanceOf(type, k instanceof ObservedKernel<?> o ? o.inner() : k, name);
        });
        assertInstanceOf(MetropolisHastings.class, KernelCatalog.create("rwm", new KernelSettings(1, false,
                Double.NaN)), "rwm without adaptation");
        assertInstanceOf(MetropolisHastings.class,
                KernelCatalog.create("proposal:" + GaussianRandomWalk.class.getName(), s));
        assertInstanceOf(CycleKernel.class, KernelCatalog.create("cycle(am, mixture(rwm, slice))", s));
        assertThrows(InvalidInputException.class, () -> KernelCatalog.create("hmc", s));
        assertThrows(InvalidInputException.class, () -> KernelCatalog.create("cycle(am,,slice)", s));
        assertThrows(InvalidInputException.class, () -> KernelCatalog.create("mixture(-1*am, slice)", s));
        assertThrows(InvalidInputException.class, () -> KernelCatalog.create("independence", s, new BimodalMixture(5)));
        assertThrows(InvalidInputException.class, () -> KernelCatalog.create("gibbs", s, new BimodalMixture(5)));
        assertThrows(InvalidInputException.class, () -> KernelCatalog.create("proposal:java.lang.String", s));
        assertThrows(InvalidInputException.class,
                () -> KernelCatalog.create("rwm", new KernelSettings(1, true, Double.NaN, 0)));
    }
}
