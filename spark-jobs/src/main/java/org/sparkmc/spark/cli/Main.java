package org.sparkmc.spark.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.UnsupportedFileSystemException;
import org.sparkmc.core.DecimalNumbers;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.spark.SparkSetup;
import org.sparkmc.spark.bn.BnCommand;
import org.sparkmc.spark.chains.ChainsCommand;
import org.sparkmc.spark.consensus.ConsensusCommand;
import org.sparkmc.spark.consensus.GenerateGlmCommand;
import org.sparkmc.spark.diagnose.DiagnoseCommand;
import org.sparkmc.spark.generate.GenerateLdaCommand;
import org.sparkmc.spark.lda.LdaCommand;
import org.sparkmc.spark.smc.SmcCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The {@code sparkmc} command line: {@code sparkmc <job> [--conf FILE] [options]}. Exit codes are those of
 * {@link ExitCode}: bad input or configuration gives 2 with one clear message and writes nothing.
 */
@Command(name = "sparkmc", mixinStandardHelpOptions = true, version = "sparkmc 0.1.0",
        description = "Monte Carlo sampling on Apache Spark.",
        subcommands = {ChainsCommand.class, DiagnoseCommand.class, SmcCommand.class, BnCommand.class, LdaCommand.class,
            ConsensusCommand.class, GenerateGlmCommand.class, GenerateLdaCommand.class,
            CommandLine.HelpCommand.class})
public final class Main implements Callable<Integer> {
    /** Hadoop's message when a scheme's configured file system class is missing (s3a:// without hadoop-aws). */
    private static final Pattern MISSING_FILE_SYSTEM = Pattern.compile("Class (\\S+FileSystem) not found");
    private static final String SCHEME_HINT = ": give a path in a scheme Hadoop serves here (a local path, file:, "
            + "hdfs://, or one whose file system's jars are on the class path)";

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        ShutdownNotice.install(args.length > 0 && !args[0].startsWith("-") ? "sparkmc " + args[0] : "sparkmc",
                System.err);
        int code = run(args);
        ShutdownNotice.ended();
        SparkSetup.stopActive();
        System.exit(code);
    }

    /**
     * An option's number, in decimal ({@link DecimalNumbers}); picocli names the option and the value. A class, not
     * a method reference: OpenJDK 17.0.15 crashed (SIGSEGV in adjust_lambda_proxy_class_dictionary) at the end of
     * every run recording the class archive ({@code submit/sparkmc}'s -XX:ArchiveClassesAtExit) with
     * {@code DecimalNumbers::parse} registered.
     */
    private static final class DecimalConverter implements CommandLine.ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            try {
                return DecimalNumbers.parse(text);
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("'" + text + "' is not a decimal number");
            }
        }
    }

    /** Columns of the help texts (all jobs). */
    private static final int HELP_WIDTH = 100;

    /** Runs a job and returns its exit code (tests call this instead of {@link #main}). */
    public static int run(String... args) {
        PrintWriter err = new PrintWriter(System.err, true);
        CommandLine commandLine = new CommandLine(new Main());
        // At picocli's 80 columns the option texts' column is too narrow for "s3a://": it broke after the colon.
        commandLine.setUsageHelpWidth(HELP_WIDTH);
        // Numbers in decimal only, on the command line and from a config file alike: 0.5d or 0x1p-1 is no number.
        commandLine.registerConverter(Double.class, new DecimalConverter());
        commandLine.registerConverter(Double.TYPE, new DecimalConverter());
        ConfigFile configFile;
        try {
            String conf = ConfigFile.find(args);
            configFile = conf == null ? ConfigFile.none() : ConfigFile.load(conf);
            commandLine.setDefaultValueProvider(configFile);
            for (CommandLine sub : commandLine.getSubcommands().values()) {
                sub.setDefaultValueProvider(configFile);
                if (sub.getCommand() instanceof JobCommand job) {
                    job.useConfigFile(configFile);
                }
            }
        } catch (InvalidInputException e) {
            // As a value refused while picocli reads the options: the job's name first, the help's hint after.
            CommandLine job = args.length > 0 ? commandLine.getSubcommands().get(args[0]) : null;
            CommandLine cmd = job == null ? commandLine : job;
            err.println(prefixed(cmd, e.getMessage()));
            err.println(helpHint(cmd));
            return ExitCode.BAD_INPUT;
        }
        shareVersion(commandLine, commandLine.getCommandSpec().version());
        CommandLine.IParameterExceptionHandler withUsage = commandLine.getParameterExceptionHandler();
        commandLine.setParameterExceptionHandler((e, arguments) -> {
            InvalidInputException cause = badInput(e);
            if (cause != null) {
                // E.g. a config value refused while picocli asked for defaults: its own message says what and where.
                CommandLine cmd = e.getCommandLine();
                cmd.getErr().println(prefixed(cmd, cause.getMessage()));
                cmd.getErr().println(helpHint(cmd));
                return ExitCode.BAD_INPUT;
            }
            String origin = configFile.origin(e.getArgSpec());
            if (origin == null) {
                return withUsage.handleParseException(e, arguments);
            }
            // The value came from the config file: name file and line, and skip the usage (its defaults show it).
            CommandLine cmd = e.getCommandLine();
            cmd.getErr().println(prefixed(cmd, origin + ": " + e.getMessage()));
            cmd.getErr().println(helpHint(cmd));
            return ExitCode.BAD_INPUT;
        });
        commandLine.setExecutionExceptionHandler((e, cmd, parseResult) -> {
            InvalidInputException bad = badInput(e);
            if (bad != null) {
                // Found on an executor, it arrives wrapped in Spark's job failure: print only its own message, after
                // the config file's line when it is about an option's value that the file gave.
                String where = configFile.originOf(cmd.getCommandSpec(), bad.getMessage());
                cmd.getErr().println(prefixed(cmd, (where == null ? "" : where + ": ") + bad.getMessage()));
                return ExitCode.BAD_INPUT;
            }
            return failed(cmd.getErr(), cmd, e);
        });
        // An empty entry in a comma-separated value, refused as any bad value is (after parsing, before the job).
        CommandLine.IExecutionStrategy runLast = new CommandLine.RunLast();
        commandLine.setExecutionStrategy(parsed -> {
            try {
                SplitEntries.check(parsed);
            } catch (InvalidInputException e) {
                throw new CommandLine.ParameterException(lastCommand(parsed), e.getMessage(), e);
            }
            return runLast.execute(parsed);
        });
        try {
            return commandLine.execute(args);
        } catch (Error e) {
            // picocli passes Errors through (e.g. Hadoop's FSError on a full local disk): same report.
            return failed(err, null, e);
        }
    }

    /**
     * Exit 1: one line for a failure of the machine (a full disk; a task out of memory, exit 52), else the error and
     * its stack trace; nothing when the JVM is shutting down ({@link ShutdownNotice} has said so, and the failure is
     * the shutdown's).
     */
    private static int failed(PrintWriter err, CommandLine job, Throwable e) {
        if (ShutdownNotice.inProgress()) {
            return ExitCode.FAILURE;
        }
        String name = job == null ? "sparkmc" : "sparkmc " + job.getCommandName();
        String environment = EnvironmentFailures.describe(e, job == null ? null : writtenPlaces(job));
        if (environment != null) {
            err.println(name + ": " + environment);
            if (EnvironmentFailures.outOfMemory(e) != null) {
                return ExitCode.OUT_OF_MEMORY;
            }
        } else {
            err.println(name + " failed: " + e);
            e.printStackTrace(err);
        }
        return ExitCode.FAILURE;
    }

    /** "--out 'DIR' or --checkpoint 'DIR'": the places the job writes that were given (on the line or in --conf). */
    private static String writtenPlaces(CommandLine job) {
        List<String> places = new ArrayList<>();
        for (String name : List.of("--out", "--checkpoint")) {
            OptionSpec option = job.getCommandSpec().findOption(name);
            if (option != null && option.getValue() != null) {
                places.add(name + " '" + option.getValue() + "'");
            }
        }
        return String.join(" or ", places);
    }

    private static CommandLine lastCommand(CommandLine.ParseResult parsed) {
        CommandLine.ParseResult last = parsed;
        while (last.subcommand() != null) {
            last = last.subcommand();
        }
        return last.commandSpec().commandLine();
    }

    /** Subcommands print the top-level version for {@code --version} (their help lists the option). */
    private static void shareVersion(CommandLine commandLine, String[] version) {
        for (CommandLine sub : commandLine.getSubcommands().values()) {
            if (sub.getCommandSpec().version().length == 0) {
                sub.getCommandSpec().version(version);
            }
            shareVersion(sub, version);
        }
    }

    /**
     * The line after a refusal met while the options are read (the config file, or a value picocli could not take):
     * where the options are listed. A value the job refuses after reading them is named with its option instead.
     */
    private static String helpHint(CommandLine cmd) {
        return "Run '" + cmd.getCommandSpec().qualifiedName() + " --help' for the options.";
    }

    /** {@code sparkmc <job>: message} ({@code sparkmc: message} at the top level). */
    static String prefixed(CommandLine cmd, String message) {
        String text = message == null ? "" : message;
        return cmd.getParent() == null ? "sparkmc: " + text : "sparkmc " + cmd.getCommandName() + ": " + text;
    }

    private static InvalidInputException badInput(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InvalidInputException bad) {
                return withSchemeHint(bad);
            }
            InvalidInputException noFileSystem = noFileSystem(t);
            if (noFileSystem != null) {
                return noFileSystem;
            }
        }
        return null;
    }

    /** {@code bad}, with what to do added when a path's scheme no file system serves is what it reports. */
    private static InvalidInputException withSchemeHint(InvalidInputException bad) {
        for (Throwable t = bad.getCause(); t != null; t = t.getCause()) {
            if (t instanceof UnsupportedFileSystemException) {
                return new InvalidInputException(bad.getMessage() + SCHEME_HINT, bad);
            }
        }
        return bad;
    }

    /**
     * A path whose scheme no Hadoop file system on the class path serves (a typo, or s3a:// without hadoop-aws),
     * wherever it was opened: bad input, with what to do; else null.
     */
    private static InvalidInputException noFileSystem(Throwable t) {
        if (t instanceof UnsupportedFileSystemException u) {
            return new InvalidInputException(u.getMessage() + SCHEME_HINT, u);
        }
        Matcher m = t instanceof ClassNotFoundException && t.getMessage() != null
                ? MISSING_FILE_SYSTEM.matcher(t.getMessage()) : null;
        if (m != null && m.matches()) {
            return new InvalidInputException("Hadoop's file system " + m.group(1) + " is not on the class path: add its"
                    + " jars (for s3a://, hadoop-aws and the AWS SDK bundle of the same Hadoop version) with "
                    + "--classpath, or spark-submit --packages", t);
        }
        return null;
    }

    /** No job named: print the usage and fail as bad input. */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("sparkmc: name a job: one of " + spec.subcommands().keySet());
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCode.BAD_INPUT;
    }
}
