package org.sparkmc.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;
import org.sparkmc.core.testing.HierarchicalNormalReference;
import org.sparkmc.core.testing.Json;
import org.sparkmc.core.testing.LinearModel;
import org.sparkmc.core.testing.PimaData;

/**
 * The analytic gradients NUTS uses, against central finite differences of the log density at 20 dispersed points
 * per model (deterministic: no false failures; a wrong term in any coordinate fails), and the log density they
 * return against {@link Target#logDensity}. Also the 100-school reference against posteriordb's eight-schools
 * reference, where both exist.
 */
class GradientsTest {
    static final Path DATA = Path.of("../data");

    static EightSchoolsNoncentered schools(String file) {
        Map<String, double[]> d = Json.arrays(DATA.resolve(file));
        return new EightSchoolsNoncentered(d.get("y"), d.get("sigma"));
    }

    static List<GradientTarget> targets() {
        Map<String, double[]> kid = Json.arrays(DATA.resolve("kidiq/kidiq.json"));
        return List.of(schools("eight_schools/eight_schools.json"), schools("schools100/schools100.json"),
                new KidscoreMomiq(kid.get("mom_iq"), kid.get("kid_score")),
                PimaData.read(Path.of(System.getProperty("sparkmc.shared.data", "/work/shared/data"), "pima/pima.csv"))
                        .model(false),
                LinearModel.autoregressive(Json.arrays(DATA.resolve("arK/arK.json")).get("y"), 5),
                LinearModel.badlyScaled(new RandomStreams(6).rng("regression")));
    }

    @Test
    void analyticGradientsMatchFiniteDifferences() {
        Rng rng = new RandomStreams(11).rng("gradient-points");
        for (GradientTarget target : targets()) {
            int d = target.dimension();
            for (int point = 0; point < 20; point++) {
                double[] x = new double[d];
                for (int i = 0; i < d; i++) {
                    x[i] = 3 * rng.uniform() - 1.5;
                }
                if (target instanceof KidscoreMomiq) {
                    x[0] = 26 + 10 * x[0];
                    x[1] = 0.6 + 0.1 * x[1];
                    x[2] = Math.log(18) + 0.3 * x[2];
                }
                double[] g = new double[d];
                double lp = target.logDensityGradient(x, g);
                assertEquals(target.logDensity(x), lp, 1e-9 * Math.abs(lp), target.getClass().getSimpleName());
                for (int i = 0; i < d; i++) {
                    double h = 1e-5 * Math.max(1, Math.abs(x[i]));
                    double[] up = x.clone();
                    double[] down = x.clone();
                    up[i] += h;
                    down[i] -= h;
                    double numeric = (target.logDensity(up) - target.logDensity(down)) / (2 * h);
                    double tolerance = 1e-5 * Math.max(1, Math.abs(numeric)) + 1e-7 * Math.abs(lp);
                    assertEquals(numeric, g[i], tolerance, target.getClass().getSimpleName() + " coordinate " + i
                            + " at point " + point);
                }
            }
        }
    }

    /**
     * The quadrature reference for the 100-school posterior, checked on the eight schools against posteriordb's
     * reference (10,000 draws): every mean within 4 of its reference MCSE, every sd within 3%. Deterministic.
     */
    @Test
    void theQuadratureReferenceReproducesPosteriordbsEightSchools() {
        HierarchicalNormalReference ref = HierarchicalNormalReference.of(new double[] {28, 8, -3, 7, -1, 1, 18, 12},
                new double[] {15, 10, 16, 11, 9, 11, 10, 18});
        List<String> lines = Json.lines(DATA.resolve("eight_schools/reference_summary.csv"));
        for (int k = 0; k < ref.size(); k++) {
            String[] f = lines.get(k + 1).split(",");
            double mean = Double.parseDouble(f[1]);
            double sd = Double.parseDouble(f[2]);
            double mcse = Double.parseDouble(f[9]);
            assertTrue(Math.abs(ref.mean(k) - mean) < 4 * mcse, f[0] + ": " + ref.mean(k) + " vs " + mean);
            assertEquals(sd, ref.sd(k), 0.03 * sd, f[0]);
        }
    }
}
