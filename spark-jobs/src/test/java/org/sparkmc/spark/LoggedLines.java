package org.sparkmc.spark;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/** Captures what a class logs while a run runs, for tests of progress lines. */
public final class LoggedLines {
    private LoggedLines() {
    }

    /** The messages {@code logger} logs while {@code run} runs. */
    public static List<String> of(Class<?> logger, Callable<?> run) throws Exception {
        return of(logger, Level.ALL, run);
    }

    /** The messages of level {@code least} or more severe that {@code logger} logs while {@code run} runs. */
    public static List<String> of(Class<?> logger, Level least, Callable<?> run) throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        Logger log = (Logger) LogManager.getLogger(logger);
        AbstractAppender capture = new AbstractAppender("captured-lines", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                if (event.getLevel().isMoreSpecificThan(least)) {
                    lines.add(event.getMessage().getFormattedMessage());
                }
            }
        };
        capture.start();
        log.addAppender(capture);
        try {
            run.call();
        } finally {
            log.removeAppender(capture);
            capture.stop();
        }
        return lines;
    }
}
