package org.sparkmc.core.mcmc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sparkmc.core.model.LogisticRegression;
import org.sparkmc.core.testing.PimaData;

/** Test helper: the shared data sets (system property {@code sparkmc.shared.data}, else /work/shared/data). */
final class ModelData {
    private ModelData() {
    }

    static Path shared() {
        String p = System.getProperty("sparkmc.shared.data");
        Path dir = p != null ? Path.of(p) : Path.of("/work/shared/data");
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("shared data not found at " + dir.toAbsolutePath());
        }
        return dir.toAbsolutePath().normalize();
    }

    /** The Pima model: 7 standardised predictors + intercept, N(0, 10²) priors; optionally starting at the mode. */
    static LogisticRegression pima(boolean startAtMode) {
        return PimaData.read(shared().resolve("pima/pima.csv")).model(startAtMode);
    }

    /** posteriordb's reference summary: name → {mean, sd, mcse_mean}. */
    static Map<String, double[]> reference(String posterior) {
        List<String> lines = read(shared().resolve("posteriordb").resolve(posterior).resolve("reference_summary.csv"));
        Map<String, double[]> out = new LinkedHashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            out.put(f[0].replace("\"", ""), new double[] {Double.parseDouble(f[1]), Double.parseDouble(f[2]),
                Double.parseDouble(f[9])});
        }
        return out;
    }

    /** A JSON data file's numeric arrays, e.g. kidiq.json. */
    static Map<String, double[]> jsonArrays(Path file) {
        return org.sparkmc.core.testing.Json.arrays(file);
    }

    static List<String> read(Path p) {
        return org.sparkmc.core.testing.Json.lines(p);
    }
}
