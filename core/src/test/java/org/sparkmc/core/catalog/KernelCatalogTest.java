package org.sparkmc.core.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.consensus.ShardSampler;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.CycleKernel;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.KernelSettings;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;

/** Kernels by name: the built-ins of the catalog, composites, and a user's class named as {@code class:}. */
class KernelCatalogTest {
    private static final KernelSettings SETTINGS = new KernelSettings(2.4, true, Double.NaN, 1, 100);

    /** N(0, 1) in one dimension. */
    private static final class StandardNormal implements Target {
        private static final long serialVersionUID = 1L;

        @Override
        public int dimension() {
            return 1;
        }

        @Override
        public double logDensity(double[] x) {
            return -0.5 * x[0] * x[0];
        }
    }

    @Test
    void everyCatalogNameBuildsAKernel() {
        KernelSettings settings = new KernelSettings(1, true, Double.NaN, 2);
        for (String name : KernelCatalog.names()) {
            if (!name.equals("independence") && !name.equals("laplace-rwm")) {
                assertTrue(KernelCatalog.create(name, settings) instanceof Kernel<?>, name);
            }
        }
    }

    /**
     * A continuous kernel on Ising spins (the default rwm) never moved them, and at 64×64 ran out of memory (exit 52);
     * every continuous kernel is refused for a model of discrete states, alone or in a composite, and Gibbs is not.
     */
    @Test
    void continuousKernelsAreRefusedForDiscreteStates() {
        Target ising = org.sparkmc.core.model.IsingDenoising.synthetic(4, 4, 0.5, 1, 3, false);
        for (String name : List.of("rwm", "am", "slice", "slice-doubling", "nuts", "cycle(colour-gibbs,rwm)")) {
            InvalidInputException e = assertThrows(InvalidInputException.class,
                    () -> KernelCatalog.create(name, SETTINGS, ising), name);
            assertTrue(e.getMessage().contains("proposes continuous moves, but model ising_denoising has coordinates "
                    + "that are -1 or +1") && e.getMessage().endsWith("use --kernel colour-gibbs or gibbs"),
                    e.getMessage());
        }
        for (String name : List.of("colour-gibbs", "gibbs", "gibbs-random")) {
            assertTrue(KernelCatalog.create(name, SETTINGS, ising) instanceof Kernel<?>, name);
        }
    }

    /**
     * gmm and gmm_collapsed hold integer component labels: a continuous kernel (the default rwm, slice) never moved
     * them (acceptance 0, or slice's "acceptance 1.000" at its random start), so it is refused as for Ising spins;
     * their Gibbs kernels are not.
     */
    @Test
    void continuousKernelsAreRefusedForMixtureLabels() {
        for (String model : List.of("gmm", "gmm_collapsed")) {
            Target target = ModelCatalog.create(model, new ModelParameters("test", Map.of("n", 20)));
            for (String name : List.of("rwm", "am", "slice", "slice-doubling", "nuts", "mixture(gibbs,rwm)")) {
                InvalidInputException e = assertThrows(InvalidInputException.class,
                        () -> KernelCatalog.create(name, SETTINGS, target), model + " " + name);
                assertTrue(e.getMessage().contains("proposes continuous moves, but model " + model + " has "
                        + "coordinates that are component labels 0 to 3") && e.getMessage().endsWith("use --kernel "
                        + "gibbs or gibbs-random"), e.getMessage());
            }
            for (String name : List.of("gibbs", "gibbs-random")) {
                assertTrue(KernelCatalog.create(name, SETTINGS, target) instanceof Kernel<?>, model + " " + name);
            }
        }
    }

    /**
     * A trans-dimensional model's position changes length with its model, so a kernel with a fixed-length state
     * failed in every task (exit 1 after Spark's retries, "a saved kernel state has … numbers more than expected");
     * every kernel of fixed dimension is refused naming the model and rjmcmc, which is not.
     */
    @Test
    void fixedDimensionKernelsAreRefusedForTransDimensionalModels() {
        Target twoMeans = ModelCatalog.create("rj_two_means", new ModelParameters("test",
                Map.of("y", List.of(-1.0, 0.5, 2.0, 3.5), "sigma", 1.0)));
        for (String name : List.of("rwm", "am", "slice", "slice-doubling", "nuts", "cycle(rjmcmc,rwm)")) {
            InvalidInputException e = assertThrows(InvalidInputException.class,
                    () -> KernelCatalog.create(name, SETTINGS, twoMeans), name);
            assertTrue(e.getMessage().contains("but model rj_two_means is trans-dimensional")
                    && e.getMessage().contains("use --kernel rjmcmc"), e.getMessage());
        }
        for (String name : List.of("gibbs", "colour-gibbs")) {
            InvalidInputException e = assertThrows(InvalidInputException.class,
                    () -> KernelCatalog.create(name, SETTINGS, twoMeans), name);
            assertTrue(e.getMessage().endsWith("(use --kernel rjmcmc)"), e.getMessage());
        }
        assertTrue(KernelCatalog.create("rjmcmc", SETTINGS, twoMeans) instanceof Kernel<?>);
    }

    /** The reverse, rjmcmc on a model of fixed dimension, names the model as --model does (it said BimodalMixture). */
    @Test
    void rjmcmcIsRefusedForAModelWithoutMovesByItsName() {
        Target bimodal = ModelCatalog.create("bimodal", ModelParameters.empty());
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> KernelCatalog.create("rjmcmc", SETTINGS, bimodal));
        assertEquals("kernel rjmcmc needs a reversible-jump model (one that defines its moves, such as "
                + "rj_normal_mixture); model bimodal does not", e.getMessage());
    }

    @Test
    void anUnknownNameListsTheKnownOnes() {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> KernelCatalog.create("hmc",
                SETTINGS));
        assertEquals("unknown kernel 'hmc': expected one of " + KernelCatalog.names() + ", 'proposal:<class>', "
                + "'class:<class>', 'cycle(k1,k2,…)' or 'mixture(w1*k1,w2*k2,…)'", e.getMessage());
        assertTrue(e.getMessage().contains("[am, colour-gibbs, gibbs, gibbs-random, independence, laplace-rwm, nuts, "
                + "rjmcmc, rwm, slice, slice-doubling]"), e.getMessage());
    }

    /** Consensus picks its shards' kernels from the catalog's names, not from a list of its own. */
    @Test
    void consensusKernelsAreCatalogKernels() {
        assertTrue(KernelCatalog.names().containsAll(ShardSampler.KERNELS), ShardSampler.KERNELS.toString());
    }

    @Test
    void topLevelCommasSplitCompositeLists() {
        assertEquals(List.of("a", "b(c, d)", "e"), KernelCatalog.splitTopLevel("a, b(c, d), e"));
    }

    @Test
    void aUserKernelIsBuiltByItsConstructorTakingTheSettings() {
        Kernel<?> kernel = KernelCatalog.create("class:" + UserKernels.WithSettings.class.getName(), SETTINGS);
        assertSame(SETTINGS, assertInstanceOf(UserKernels.WithSettings.class, kernel).settings);
    }

    @Test
    void aUserKernelIsBuiltByItsStaticFactoryOrItsNoArgumentConstructor() {
        Kernel<?> byFactory = KernelCatalog.create(" class: " + UserKernels.WithFactory.class.getName(), SETTINGS);
        assertEquals(4.8, assertInstanceOf(UserKernels.WithFactory.class, byFactory).scale);
        Kernel<?> plain = KernelCatalog.create("class:" + UserKernels.Plain.class.getName(), SETTINGS);
        assertEquals(0.5, assertInstanceOf(UserKernels.Plain.class, plain).scale);
    }

    @Test
    void aUserKernelComposesWithTheBuiltIns() {
        Kernel<?> cycle = KernelCatalog.create("cycle(rwm, class:" + UserKernels.WithSettings.class.getName() + ")",
                SETTINGS);
        assertInstanceOf(CycleKernel.class, cycle);
    }

    /** Fixed seed; 20,000 draws of N(0, 1) by a walk of sd 2.4 have an MCSE of the mean near 0.02: 0.1 is 5 MCSEs. */
    @Test
    void aUserKernelSamplesItsTarget() {
        Target target = new StandardNormal();
        Kernel<?> kernel = KernelCatalog.create("class:" + UserKernels.WithSettings.class.getName(), SETTINGS,
                target);
        RandomStreams streams = new RandomStreams(2026);
        ChainState start = ChainRound.start(1, target, kernel, streams);
        RoundResult kept = ChainRound.run(target, kernel, start, 1, 20_000, false, true, streams);
        double[] x = kept.draws()[0];
        double sum = 0;
        double squares = 0;
        for (double xi : x) {
            sum += xi;
            squares += xi * xi;
        }
        int n = x.length;
        assertEquals(20_000, n);
        assertTrue(kept.accepted() > 0 && kept.accepted() < n, "acceptance " + kept.accepted());
        assertEquals(0, sum / n, 0.1);
        assertEquals(1, squares / n, 0.1);
    }

    @Test
    void aMissingUserKernelIsBadInputNamingTheOptionAndClass() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> KernelCatalog.create("class:com.example.NoSuchKernel", SETTINGS));
        assertEquals("--kernel class 'com.example.NoSuchKernel' is not on the classpath (ship it with --jars to "
                + "spark-submit, or --classpath to submit/sparkmc)", e.getMessage());
    }

    @Test
    void aClassThatIsNoKernelIsRefused() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> KernelCatalog.create("class:java.lang.String", SETTINGS));
        assertEquals("--kernel class 'java.lang.String' does not implement org.sparkmc.core.mcmc.Kernel",
                e.getMessage());
    }

    @Test
    void aKernelWithoutAUsableConstructorIsRefused() {
        String name = UserKernels.Unbuildable.class.getName();
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> KernelCatalog.create("class:" + name, SETTINGS));
        assertEquals("--kernel class:" + name + ": kernel class '" + name + "' needs a public constructor taking "
                + "KernelSettings, a public static of(KernelSettings) or a public no-argument constructor",
                e.getMessage());
    }

    @Test
    void aKernelRefusingItsSettingsKeepsItsMessage() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> KernelCatalog.create("class:" + UserKernels.Refusing.class.getName(), SETTINGS));
        assertEquals("Refusing needs adapt = false", e.getMessage());
    }
}
