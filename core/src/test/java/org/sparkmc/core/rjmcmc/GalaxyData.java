package org.sparkmc.core.rjmcmc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Test helper: the 82 galaxy velocities (corrected observation 78) in 1000 km/s, from {@code galaxy/} under the
 * shared data folder (system property {@code sparkmc.shared.data}, else {@code SPARKMC_SHARED_DATA}, else
 * {@code ../../shared/data}, {@code ../shared/data}, {@code /work/shared/data}).
 */
final class GalaxyData {
    static final String FILE = "galaxy/galaxies_corrected_obs78_26960.csv";

    private GalaxyData() {
    }

    static double[] velocities() {
        List<String> tried = new ArrayList<>();
        for (String c : new String[] {System.getProperty("sparkmc.shared.data"), System.getenv("SPARKMC_SHARED_DATA"),
            "../../shared/data", "../shared/data", "/work/shared/data"}) {
            if (c == null) {
                continue;
            }
            Path file = Path.of(c).resolve(FILE).toAbsolutePath().normalize();
            tried.add(file.toString());
            if (Files.isRegularFile(file)) {
                try {
                    return Files.readAllLines(file).stream().skip(1).filter(l -> !l.isBlank())
                            .mapToDouble(l -> Double.parseDouble(l.trim()) / 1000).toArray();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException("galaxy data not found; tried " + tried);
    }
}
