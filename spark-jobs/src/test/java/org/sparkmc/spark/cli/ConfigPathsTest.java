package org.sparkmc.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sparkmc.spark.cli.BadInputTest.runCapturing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.TestPaths;
import org.sparkmc.spark.cli.BadInputTest.Result;

/**
 * Relative paths in a config file resolve against the file's directory (issue 18, item 8): a project's config names
 * its data as {@code ../data/…} and runs from any working directory. The tests run in {@code spark-jobs/}, never in
 * the temporary project that holds the config, so a path resolved against the working directory would not exist.
 */
public class ConfigPathsTest extends SparkTestBase {
    private static final String QUICK = "model = eight_schools_noncentered\nwarmup = 50\nround-size = 100\n"
            + "max-rounds = 1\nchains = 2\n";

    @TempDir
    Path tmp;

    /** A project in the temporary directory: {@code data/es.json} and an empty {@code conf/}. */
    private Path project() throws IOException {
        Path data = Files.createDirectories(tmp.resolve("project/data"));
        Files.copy(TestPaths.projectRoot().resolve("data/eight_schools/eight_schools.json"), data.resolve("es.json"));
        return Files.createDirectories(tmp.resolve("project/conf"));
    }

    @Test
    void dataAndOutInAConfigResolveAgainstItsDirectory() throws IOException {
        Path conf = project().resolve("run.conf");
        Files.writeString(conf, QUICK + "data = \"../data/es.json\"\nout = \"../results/es\"\n");
        Result r = runCapturing("chains", "--conf", conf.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(Files.isRegularFile(tmp.resolve("project/results/es/summary.json")), r.err());
        assertFalse(Files.exists(Path.of("../results")), "nothing written relative to the working directory");
    }

    @Test
    void commandLinePathsStayRelativeToTheWorkingDirectory() throws IOException {
        Path conf = project().resolve("run.conf");
        Files.writeString(conf, QUICK + "data = \"../data/es.json\"\n");
        Path cwdRelative = Path.of("").toAbsolutePath().relativize(tmp.resolve("project/data/es.json"));
        Path out = tmp.resolve("from-the-line");
        Result r = runCapturing("chains", "--conf", conf.toString(), "--data", cwdRelative.toString(), "--out",
                Path.of("").toAbsolutePath().relativize(out).toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(Files.isRegularFile(out.resolve("summary.json")), r.err());
    }

    @Test
    void absolutePathsAndUrisStayAsWritten() throws IOException {
        Path conf = project().resolve("run.conf");
        Files.writeString(conf, QUICK);
        ConfigFile file = ConfigFile.load(conf.toString());
        for (String kept : new String[] {"/abs/data.json", "hdfs://nn:8020/d/x.json", "s3a://bucket/x.json",
            "file:/tmp/x.json", "file:///tmp/x.json", ""}) {
            assertEquals(kept, file.resolved(kept));
        }
        assertEquals(tmp.resolve("project/data/es.json").toString(), file.resolved("../data/es.json"));
        assertEquals(tmp.resolve("project/conf/d/x.json").toString(), file.resolved("d/x.json"));
    }

    @Test
    void aMissingRelativeDataFileIsNamedWhereItWasLookedFor() throws IOException {
        Path conf = project().resolve("run.conf");
        Files.writeString(conf, QUICK + "data = \"../data/missing.json\"\nout = \"../results/m\"\n");
        Result r = runCapturing("chains", "--conf", conf.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains(tmp.resolve("project/data/missing.json").toString()), r.err());
    }

    /** {@code out = "."} now means the config's own directory, which holds an input of the run: still refused. */
    @Test
    void anOutputThatIsTheConfigsDirectoryIsRefused() throws IOException {
        Path confDir = project();
        Path conf = confDir.resolve("run.conf");
        Files.writeString(conf, QUICK + "data = \"../data/es.json\"\nout = \".\"\noverwrite = true\n");
        Files.writeString(confDir.resolve("PRECIOUS.txt"), "keep");
        Result r = runCapturing("chains", "--conf", conf.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertEquals("keep", Files.readString(confDir.resolve("PRECIOUS.txt")));
        assertTrue(Files.isRegularFile(conf));
    }
}
