package org.sparkmc.core.mcmc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.catalog.KernelCatalog;
import org.sparkmc.core.model.EightSchoolsNoncentered;
import org.sparkmc.core.model.LogisticRegression;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.testing.HierarchicalNormalReference;
import org.sparkmc.core.testing.ImportanceReference;
import org.sparkmc.core.testing.Json;

/**
 * NUTS with default settings (4 chains, 1,000 warm-up iterations, dispersed starts) against the references the
 * project ships: posteriordb's eight_schools_noncentered and kidiq-kidscore_momiq, Pima logistic regression against
 * its importance-sampling reference, and the 102-parameter 100-school posterior against its quadrature reference
 * ({@link HierarchicalNormalReference}). Every mean within 4 combined MCSE (4.5 for the 102 quantities of the
 * 100-school posterior) after R-hat &lt; 1.01; fixed seeds. For fresh seeds a quantity fails with probability
 * ≈ 6e-5 (7e-6 at 4.5 MCSE): ≈ 0.1% per posterior.
 */
class NutsPosteriorsTest {

    private static Kernel<?> nuts(Target target) {
        return KernelCatalog.create("nuts", new KernelSettings(1, true, Double.NaN, 1, 1000), target);
    }

    /** Checks means against {name → {mean, mcse}} (mcse 0 for an exact reference). */
    private static void check(Target target, Map<String, double[]> reference, double tolerance, int draws,
            long seed) {
        RunChains.Result r = RunChains.run(target, nuts(target), 4, 1000, draws, seed);
        List<String> names = target.parameterNames();
        for (Map.Entry<String, double[]> e : reference.entrySet()) {
            int p = names.indexOf(e.getKey());
            assertTrue(p >= 0, "no parameter " + e.getKey());
            assertTrue(r.rhat(p) < 1.01, e.getKey() + ": R-hat " + r.rhat(p));
            double combined = Math.hypot(r.mcse(p), e.getValue()[1]);
            assertTrue(Math.abs(r.mean(p) - e.getValue()[0]) < tolerance * combined, e.getKey() + ": " + r.mean(p)
                    + " vs reference " + e.getValue()[0] + " (" + tolerance + " combined MCSE " + tolerance * combined
                    + ")");
        }
    }

    private static Map<String, double[]> posteriordb(String posterior) {
        Map<String, double[]> out = new java.util.LinkedHashMap<>();
        ModelData.reference(posterior).forEach((name, v) -> out.put(name, new double[] {v[0], v[2]}));
        return out;
    }

    @Test
    void eightSchoolsMatchesPosteriordb() {
        check(PosteriordbKernelsTest.eightSchools(), posteriordb("eight_schools-eight_schools_noncentered"), 4, 5000,
                301);
    }

    @Test
    void kidiqMatchesPosteriordb() {
        check(PosteriordbKernelsTest.kidiq(), posteriordb("kidiq-kidscore_momiq"), 4, 5000, 302);
    }

    @Test
    void pimaMatchesItsImportanceSamplingReference() {
        LogisticRegression model = ModelData.pima(false);
        double[][] ref = ImportanceReference.of(model, 50_000, 91);
        Map<String, double[]> reference = new java.util.LinkedHashMap<>();
        for (int j = 0; j < ref.length; j++) {
            reference.put(model.parameterNames().get(j), new double[] {ref[j][0], ref[j][2]});
        }
        check(model, reference, 4, 3000, 303);
    }

    @Test
    void hundredSchoolsMatchTheQuadratureReference() {
        Map<String, double[]> data = Json.arrays(Path.of("../data/schools100/schools100.json"));
        EightSchoolsNoncentered target = new EightSchoolsNoncentered(data.get("y"), data.get("sigma"));
        HierarchicalNormalReference exact = HierarchicalNormalReference.of(data.get("y"), data.get("sigma"));
        Map<String, double[]> reference = new java.util.LinkedHashMap<>();
        List<String> names = target.parameterNames();
        for (int k = 0; k < names.size(); k++) {
            reference.put(names.get(k), new double[] {exact.mean(k), 0});
        }
        check(target, reference, 4.5, 2000, 304);
    }
}
