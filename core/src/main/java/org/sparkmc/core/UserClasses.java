package org.sparkmc.core;

/**
 * Loads a class a user names on the command line (a target, a proposal) without running any of its code until it
 * is known to implement the interface expected of it: the class is loaded uninitialised, checked, and only then
 * initialised, so naming the wrong class cannot run its static initialiser.
 */
public final class UserClasses {
    private UserClasses() {
    }

    /**
     * @param kind         what the class is for, in messages ("model", "proposal")
     * @param missingHint  what to add when the class is not found, e.g. how to ship it; may be empty
     * @throws InvalidInputException when the class is missing, does not implement {@code expected}, or its static
     *                               initialiser fails
     */
    public static <T> Class<? extends T> load(String kind, String className, Class<T> expected, String missingHint) {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        ClassLoader loader = context != null ? context : UserClasses.class.getClassLoader();
        Class<?> type;
        try {
            type = Class.forName(className, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new InvalidInputException(kind + " class '" + className + "' is not on the classpath" + missingHint,
                    e);
        }
        if (!expected.isAssignableFrom(type)) {
            throw new InvalidInputException(kind + " class '" + className + "' does not implement "
                    + expected.getName());
        }
        try {
            return Class.forName(className, true, loader).asSubclass(expected);
        } catch (ClassNotFoundException | LinkageError e) {
            Throwable cause = e instanceof ExceptionInInitializerError && e.getCause() != null ? e.getCause() : e;
            throw new InvalidInputException(kind + " class '" + className + "' failed to initialise: " + cause, e);
        }
    }
}
