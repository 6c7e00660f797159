package org.sparkmc.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.sparkmc.spark.TestPaths;

/**
 * For the resume integration tests: runs a job through {@code submit/sparkmc} in local mode (its own driver JVM) and
 * kills that JVM with kill -9 once a given checkpoint file exists, while the job still runs; plus a small local
 * session to read outputs with.
 */
public final class KilledDriver {
    private KilledDriver() {
    }

    /**
     * Starts the job, waits for {@code file}, kills the driver with kill -9 and returns the driver's output. Fails
     * the test when the job ends before the file appears.
     */
    public static String killAfter(Path file, Path log, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(TestPaths.projectRoot().resolve("submit/sparkmc").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(TestPaths.projectRoot().toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().remove("SPARK_HOME");
        pb.environment().put("SPARKMC_JAVA_OPTS", "-Xmx1g");
        Process driver = pb.start();
        for (int i = 0; i < 6000 && !Files.exists(file) && driver.isAlive(); i++) {
            Thread.sleep(50);
        }
        assertTrue(driver.isAlive() && Files.exists(file), "no " + file.getFileName() + " while the job ran: "
                + Files.readString(log));
        assertEquals(0, new ProcessBuilder("kill", "-9", Long.toString(driver.pid())).start().waitFor());
        assertTrue(driver.waitFor(1, TimeUnit.MINUTES));
        return Files.readString(log);
    }

    /** A local[1] session on loopback for reading outputs. */
    public static SparkSession reader(String name) {
        return SparkSession.builder().master("local[1]").appName(name)
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
    }

    /** The arguments {@code a} followed by {@code b}. */
    public static String[] with(String[] a, String... b) {
        return Stream.concat(Stream.of(a), Stream.of(b)).toArray(String[]::new);
    }
}
