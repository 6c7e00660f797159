package org.sparkmc.core.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.sparkmc.core.model.ModelParameters;

/** Reads the project's model data files (JSON) for benchmarks run from the project root. */
final class BenchData {
    private BenchData() {
    }

    static Path projectRoot() {
        Path p = Path.of(System.getProperty("sparkmc.project.root", ".")).toAbsolutePath().normalize();
        if (!Files.isDirectory(p.resolve("data"))) {
            throw new IllegalStateException("run from the project root (no data/ in " + p + ")");
        }
        return p;
    }

    @SuppressWarnings("unchecked")
    static ModelParameters json(String relative, Map<String, Object> extra) {
        try {
            Map<String, Object> values = new ObjectMapper().readValue(projectRoot().resolve(relative).toFile(), Map.class);
            values.putAll(extra);
            return new ModelParameters(relative, values);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
