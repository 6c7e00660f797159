package org.sparkmc.core.rjmcmc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.ObservedKernel;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.model.BimodalMixture;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;

/** The kernel's plumbing as the chains job uses it: rounds, counters, determinism, serialization, configuration. */
class RjmcmcKernelTest {

    /**
     * A p(k) with no mass — every log p(k) −∞ — or with a NaN or +∞ log p(k) is refused: the prior draw picked
     * k = kmax every time from such a prior.
     */
    @Test
    void aLogPriorOfKWithoutMassIsRefused() {
        MixturePrior prior = MixturePrior.richardsonGreen(new double[] {1, 2, 4}, 3);
        double inf = Double.POSITIVE_INFINITY;
        for (double[] bad : new double[][] {{-inf, -inf, -inf}, {Double.NaN, Double.NaN, Double.NaN},
            {0, Double.NaN, 0}, {0, inf, 0}}) {
            assertThrows(IllegalArgumentException.class, () -> prior.withLogPriorK(bad),
                java.util.Arrays.toString(bad));
        }
        assertEquals(3, prior.withLogPriorK(new double[] {-inf, -inf, 0}).kmax(), "one k with mass is a prior");
    }

    @Test
    void countsProposalsAndAcceptancesPerMoveSeparatelyForWarmupAndSampling() {
        NormalMixture model = GalaxyTest.galaxyModel();
        Kernel<?> kernel = RjmcmcKernel.ofTargetSweep().counted();
        RandomStreams streams = new RandomStreams(3);
        ChainState s = ChainRound.start(1, model, kernel, streams);
        s = ChainRound.run(model, kernel, s, 1, 200, true, false, streams).state();
        RoundResult r = ChainRound.run(model, kernel, s, 2, 300, false, true, streams);
        List<MoveRate> warm = MoveCounter.rates(kernel, model, List.of(r.state()), true);
        List<MoveRate> sampling = MoveCounter.rates(kernel, model, List.of(r.state()), false);
        assertEquals(9, sampling.size());
        assertEquals(200, warm.get(0).proposed());
        assertEquals(300, sampling.get(0).proposed());
        assertEquals(300, sampling.get(5).proposed() + sampling.get(6).proposed(), "split + merge once a sweep");
        assertEquals(300, sampling.get(7).proposed() + sampling.get(8).proposed(), "birth + death once a sweep");
        for (MoveRate m : sampling) {
            assertTrue(m.accepted() <= m.proposed(), m.toString());
        }
        // step() reports model changes: the round's "accepted" count is the number of sweeps that changed k.
        long changes = 0;
        double[] k = r.draws()[0];
        double previous = s.position()[0];
        for (double v : k) {
            if (v != previous) {
                changes++;
            }
            previous = v;
        }
        assertEquals(changes, r.accepted(), "steps reported as changing k");
    }

    @Test
    void aRoundIsAPureFunctionOfStateSeedChainAndRoundAndSurvivesSerialization() throws Exception {
        NormalMixture model = GalaxyTest.galaxyModel();
        ObservedKernel<Void> kernel = RjmcmcKernel.ofTargetSweep().counted();
        RandomStreams streams = new RandomStreams(9);
        ChainState start = ChainRound.start(4, model, kernel, streams);
        RoundResult a = ChainRound.run(model, kernel, start, 5, 200, false, true, streams);
        Target shippedModel = roundTrip(model);
        ObservedKernel<Void> shippedKernel = roundTrip(kernel);
        RoundResult b = ChainRound.run(shippedModel, shippedKernel, start.copy(kernel), 5, 200, false, true,
                new RandomStreams(9));
        for (int p = 0; p < a.draws().length; p++) {
            assertArrayEquals(a.draws()[p], b.draws()[p]);
        }
        assertEquals(a.state(), b.state());
        assertEquals(MoveCounter.rates(kernel, model, List.of(a.state()), false),
                MoveCounter.rates(shippedKernel, shippedModel, List.of(b.state()), false));
    }

    @Test
    void everyModelAndItsMovesSerialize() throws Exception {
        for (TransDimensionalTarget model : ReversiblePairsTest.allModels()) {
            TransDimensionalTarget copy = roundTrip(model);
            assertEquals(RjmcmcKernel.ofTargetSweep().labels(model), RjmcmcKernel.ofTargetSweep().labels(copy));
            double[] x = model.initialPosition(new RandomStreams(2).rng("x"));
            assertEquals(model.logDensity(x), copy.logDensity(x));
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T value) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    @Test
    void reportsAFixedListOfLabelInvariantQuantitiesWhateverK() {
        double[] y = GalaxyData.velocities();
        NormalMixture model = new NormalMixture(y, MixturePrior.richardsonGreen(y, 30),
                NormalMixture.evenGrid(5, 40, 8));
        assertEquals(List.of("k", "empty", "beta", "loglik", "f[1]", "f[2]", "f[3]", "f[4]", "f[5]", "f[6]", "f[7]",
                "f[8]"), model.parameterNames());
        RandomStreams streams = new RandomStreams(1);
        for (int c = 0; c < 20; c++) {
            double[] x = model.initialPosition(streams.rng("init", c));
            double[] p = model.parameters(x);
            assertEquals(12, p.length);
            assertEquals(x[0], p[0]);
            // The density on the grid is the mixture density of the position.
            assertEquals(NormalMixture.mixtureDensity(x, 5 + 35.0 * 3 / 7), p[7], 1e-12);
        }
    }

    @Test
    void rejectsATargetWithoutMoves() {
        RjmcmcKernel kernel = RjmcmcKernel.ofTargetSweep();
        Target plain = new BimodalMixture(5);
        ChainState s = new ChainState(1, new double[] {0}, plain.logDensity(new double[] {0}),
                kernel.initialState(1));
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> kernel.advance(plain, s, new RandomStreams(1).rng("x"), false));
        assertTrue(e.getMessage().contains("reversible-jump model"), e.getMessage());
    }

    @Test
    void buildsTheModelsFromJobParameters() throws Exception {
        // The galaxy data file the chains job reads (data/galaxy/galaxy.json, 1000 km/s).
        Path json = Path.of("../data/galaxy/galaxy.json");
        String text = Files.readString(json);
        double[] y = java.util.Arrays.stream(text.substring(text.indexOf('[') + 1, text.indexOf(']')).split(","))
                .mapToDouble(s -> Double.parseDouble(s.trim())).toArray();
        assertArrayEquals(GalaxyData.velocities(), y, 1e-12);
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("y", java.util.Arrays.stream(y).boxed().toList());
        values.put("grid_points", 10);
        NormalMixture mixture = new NormalMixture(new ModelParameters("test", values));
        assertEquals(GalaxyTest.galaxyModel().prior(), mixture.prior());
        assertEquals(14, mixture.parameterNames().size());

        values.put("kmax", 0);
        InvalidInputException bad = assertThrows(InvalidInputException.class,
                () -> new NormalMixture(new ModelParameters("conf/x.conf", values)));
        assertTrue(bad.getMessage().contains("conf/x.conf") && bad.getMessage().contains("kmax"), bad.getMessage());

        Map<String, Object> means = new LinkedHashMap<>();
        means.put("y", java.util.Arrays.stream(TwoMeansTest.Y).boxed().toList());
        means.put("sigma", 1);
        means.put("jump", "birth_death");
        TwoMeans two = new TwoMeans(new ModelParameters("test", means));
        assertEquals(List.of("walk", "birth", "death"), RjmcmcKernel.ofTargetSweep().labels(two));
        means.put("jump", "teleport");
        InvalidInputException badJump = assertThrows(InvalidInputException.class,
                () -> new TwoMeans(new ModelParameters("test", means)));
        assertTrue(badJump.getMessage().contains("split_merge or birth_death"), badJump.getMessage());

        Map<String, Object> clusters = new LinkedHashMap<>();
        clusters.put("sigma", 1);
        clusters.put("lambda", 2);
        clusters.put("kmax", 5);
        CentreClustering c = new CentreClustering(new ModelParameters("test", clusters));
        assertEquals(5, c.priorK().length);
        assertEquals(List.of("move", "birth", "death"), RjmcmcKernel.ofTargetSweep().labels(c));
    }
}
