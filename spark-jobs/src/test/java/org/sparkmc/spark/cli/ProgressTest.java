package org.sparkmc.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

class ProgressTest {

    /** Counts the lines a logger receives. */
    static final class CountingLogger extends org.slf4j.helpers.MarkerIgnoringBase {
        int lines;

        @Override public boolean isTraceEnabled() { return false; }
        @Override public void trace(String m) { }
        @Override public void trace(String f, Object a) { }
        @Override public void trace(String f, Object a, Object b) { }
        @Override public void trace(String f, Object... a) { }
        @Override public void trace(String m, Throwable t) { }
        @Override public boolean isDebugEnabled() { return false; }
        @Override public void debug(String m) { }
        @Override public void debug(String f, Object a) { }
        @Override public void debug(String f, Object a, Object b) { }
        @Override public void debug(String f, Object... a) { }
        @Override public void debug(String m, Throwable t) { }
        @Override public boolean isInfoEnabled() { return true; }
        @Override public void info(String m) { lines++; }
        @Override public void info(String f, Object a) { lines++; }
        @Override public void info(String f, Object a, Object b) { lines++; }
        @Override public void info(String f, Object... a) { lines++; }
        @Override public void info(String m, Throwable t) { lines++; }
        @Override public boolean isWarnEnabled() { return false; }
        @Override public void warn(String m) { }
        @Override public void warn(String f, Object a) { }
        @Override public void warn(String f, Object... a) { }
        @Override public void warn(String f, Object a, Object b) { }
        @Override public void warn(String m, Throwable t) { }
        @Override public boolean isErrorEnabled() { return false; }
        @Override public void error(String m) { }
        @Override public void error(String f, Object a) { }
        @Override public void error(String f, Object a, Object b) { }
        @Override public void error(String f, Object... a) { }
        @Override public void error(String m, Throwable t) { }
    }

    @Test
    void logLinesKeepASteadyRhythm() {
        CountingLogger log = new CountingLogger();
        Progress progress = new Progress(log, null, 1000, 60);
        progress.step(1, "warmup", "first", false);
        for (int i = 2; i < 500; i++) {
            progress.step(i, "warmup", "fast step " + i, false);
        }
        progress.step(500, "sampling", "phase change", false);
        for (int i = 501; i < 1000; i++) {
            progress.step(i, "sampling", "fast step " + i, false);
        }
        progress.step(1000, "sampling", "last", true);
        assertEquals(3, log.lines, "first, phase change and last only, within one minute");
    }

    @Test
    void terminalGetsOneRedrawnLineWithTimeLeft() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        Progress progress = new Progress(NOPLogger.NOP_LOGGER, new PrintStream(buffer, true, StandardCharsets.UTF_8),
                4, 2);
        progress.step(1, "warmup", "round 1", false);
        progress.step(4, "sampling", "round 4", true);
        String out = buffer.toString(StandardCharsets.UTF_8);
        assertTrue(out.startsWith("\r[######..................] 1/4  ≤ "), out);
        assertTrue(out.contains("left  round 1"), out);
        assertTrue(out.contains("\r[########################] 4/4  done  round 4"), out);
        assertEquals(1, out.chars().filter(c -> c == '\n').count());
    }
}
