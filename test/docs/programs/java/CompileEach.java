import java.io.File;
import java.util.ArrayList;
import java.util.List;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles each Java source file given on its own, as javac would, in one JVM: every doc block is
 * a whole compilation unit named App (languages.md's src/main/java/App.java), so they cannot be
 * compiled together, and a JVM start per block would cost seconds each.
 *
 * Usage: java CompileEach.java <classpath> <file>... ; prints "<file>:<line>: <message>" per error
 * and exits 1 when any file fails.
 */
public class CompileEach {
    public static void main(String[] args) throws Exception {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        boolean failed = false;
        try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, null)) {
            for (int i = 1; i < args.length; i++) {
                File source = new File(args[i]);
                File classes = new File(source.getParentFile(), "classes");
                classes.mkdirs();
                DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
                List<String> options = new ArrayList<>(List.of("-classpath", args[0], "-d", classes.getPath(), "-proc:none"));
                boolean ok = compiler
                        .getTask(null, files, diagnostics, options, null, files.getJavaFileObjects(source))
                        .call();
                for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                    if (d.getKind() != Diagnostic.Kind.ERROR) continue;
                    System.out.println(source.getPath() + ":" + d.getLineNumber() + ": " + d.getMessage(null).replace('\n', ' '));
                }
                failed |= !ok;
            }
        }
        System.exit(failed ? 1 : 0);
    }
}
