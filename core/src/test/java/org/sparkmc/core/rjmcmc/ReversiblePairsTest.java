package org.sparkmc.core.rjmcmc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every Metropolis–Hastings move of every reversible-jump model in the project passes the reversible-pair checks
 * ({@link ReversiblePairChecker}: dimension matching, h∘h⁻¹ = identity, |det J| against finite differences), and the
 * checker fails on deliberately broken pairs. Deterministic given the seed (the checks are numerical, not statistical).
 */
class ReversiblePairsTest {

    static List<TransDimensionalTarget> allModels() {
        double[] y = TwoMeansTest.Y;
        return List.of(TwoMeansTest.model(TwoMeans.Jump.SPLIT_MERGE), TwoMeansTest.model(TwoMeans.Jump.BIRTH_DEATH),
                new CentreClustering(y, 1, 0, 4, CentreClustering.poissonPrior(2, 6), 4, 0.5),
                new NormalMixture(y, MixturePrior.richardsonGreen(y, 30), new double[0]));
    }

    @Test
    void everyMoveOfEveryModelIsAValidReversiblePair() {
        int checked = 0;
        for (TransDimensionalTarget model : allModels()) {
            for (Move move : model.sweep()) {
                if (move instanceof MetropolisMove) {
                    assertFalse(move.bijections().isEmpty(), move.labels() + " of " + model.getClass().getSimpleName()
                            + " is a Metropolis–Hastings move without a bijection to check");
                }
                for (Bijection b : move.bijections()) {
                    ReversiblePairChecker.assertValid(b, 5);
                    checked++;
                }
            }
        }
        assertTrue(checked >= 10, "checked " + checked);
    }

    @Test
    void theSplitJacobianIsTwoAndTheSlidesOmissionIsCaught() {
        TwoMeans.SplitMeans split = new TwoMeans.SplitMeans(1);
        assertEquals(Math.log(2), ReversiblePairChecker.logAbsDet(ReversiblePairChecker.jacobian(split::forward,
                new double[] {0.3, -1.1})), 1e-9);
        List<String> failures = ReversiblePairChecker.failures(new TwoMeansTest.WrongJacobian(split, 0), 50, 5);
        assertFalse(failures.isEmpty());
        assertTrue(failures.get(0).contains("log|det J|"), failures.get(0));
    }

    @Test
    void aWrongRichardsonGreenJacobianIsCaught() {
        SplitBijection rg = new SplitBijection();
        // Forgetting the 1/σ² factor: off by a point-dependent amount.
        Bijection wrong = new DelegatingBijection(rg) {
            @Override
            public double logAbsDetJacobian(double[] xu) {
                return rg.logAbsDetJacobian(xu) + Math.log(xu[2]);
            }
        };
        assertFalse(ReversiblePairChecker.failures(wrong, 50, 6).isEmpty());
        BirthBijection birth = new BirthBijection(4);
        Bijection noRescaling = new DelegatingBijection(birth) {
            @Override
            public double logAbsDetJacobian(double[] xu) {
                return 0;
            }
        };
        assertFalse(ReversiblePairChecker.failures(noRescaling, 50, 6).isEmpty());
    }

    @Test
    void aWrongInverseAndADimensionMismatchAreCaught() {
        TwoMeans.SplitMeans split = new TwoMeans.SplitMeans(1);
        Bijection badInverse = new DelegatingBijection(split) {
            @Override
            public double[] inverse(double[] t) {
                return new double[] {0.5 * (t[0] + t[1]), t[1] - t[0]};
            }
        };
        List<String> f = ReversiblePairChecker.failures(badInverse, 20, 7);
        assertTrue(f.stream().anyMatch(s -> s.contains("h⁻¹(h(a)) ≠ a")), f.toString());
        Bijection dropsU = new DelegatingBijection(split) {
            @Override
            public int uDimension() {
                return 0;
            }
        };
        List<String> g = ReversiblePairChecker.failures(dropsU, 20, 7);
        assertTrue(g.get(0).contains("dim(x) + dim(u)"), g.toString());
    }

    @Test
    void listsEveryLabel() {
        List<String> labels = new ArrayList<>(RjmcmcKernel.ofTargetSweep().labels(allModels().get(3)));
        assertEquals(List.of("weights", "means", "variances", "allocations", "beta", "split", "merge", "birth",
                "death"), labels);
    }
}
