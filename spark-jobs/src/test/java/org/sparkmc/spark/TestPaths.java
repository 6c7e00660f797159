package org.sparkmc.spark;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the project's own files and the shared data sets are, as Surefire tells the tests. */
public final class TestPaths {
    private TestPaths() {
    }

    public static Path projectRoot() {
        return Path.of(System.getProperty("sparkmc.project.root", "..")).toAbsolutePath().normalize();
    }

    public static Path conf(String name) {
        return projectRoot().resolve("conf").resolve(name);
    }

    public static Path sharedData() {
        Path p = Path.of(System.getProperty("sparkmc.shared.data", "../../shared/data")).toAbsolutePath().normalize();
        if (!Files.isDirectory(p)) {
            throw new IllegalStateException("shared data not found at " + p + " (expected ../shared beside the checkout)");
        }
        return p;
    }
}
