package io.ddf.engine;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The engine's packages by role, as rules, so that a package cycle or a dependency on the embedder API from below
 * fails the build. Each package's {@code package-info.java} says what it may depend on; these rules say the same.
 *
 * <pre>
 *   pipeline   tune                  consumers of the API (tune also of model)
 *      │
 *   io.ddf.engine (API)              DuplicateFilter, Filters, FilterBuilder, FilterKind, ...
 *      │
 *   internal                         MappedFilter, FilterFactory, FilterCounters, FilterKinds (registry)
 *      │
 *   composite                        kinds composed of other families' cores (fifo-bloom: Bloom subfilters in a queue)
 *      │
 *   quotient  bloom  cuckoo  window  the families, independent of each other
 *      │
 *   spi                              KindDefinition, FilterCore, ParamDef, KindCodes, ...
 *      │
 *   memory   hash                    MappedWords; ElementHasher, Mix
 *
 *   model                            formulas, no engine dependency either way
 * </pre>
 * composite uses the families, spi, memory, hash and model (its sizing formulas).
 * A layer uses only layers below it: pipeline the API and hash; tune the API and model; the API internal, spi and hash; internal everything
 * below it; a family spi, memory and hash; spi memory; changelog (the filters' records and replay) spi.
 */
class ArchitectureTest
{
    private static final String ROOT = "io.ddf.engine";
    private static final JavaClasses ENGINE = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages(ROOT);

    /** Every engine class in the slice of its own package: the root is a slice like any other. */
    private static final SliceAssignment BY_PACKAGE = new SliceAssignment()
    {
        @Override
        public SliceIdentifier getIdentifierOf(final JavaClass javaClass)
        {
            final String name = javaClass.getPackageName();
            return name.equals(ROOT) || name.startsWith(ROOT + ".") ? SliceIdentifier.of(name) :
                SliceIdentifier.ignore();
        }

        @Override
        public String getDescription()
        {
            return "the engine's packages";
        }
    };

    @Test
    void theRulesSeeEveryEnginePackage()
    {
        final Set<String> packages = new TreeSet<>();
        for (final JavaClass javaClass : ENGINE)
        {
            packages.add(javaClass.getPackageName());
        }
        assertEquals(new TreeSet<>(Set.of(ROOT, ROOT + ".spi", ROOT + ".memory", ROOT + ".hash", ROOT + ".internal",
            ROOT + ".quotient", ROOT + ".bloom", ROOT + ".cuckoo", ROOT + ".window", ROOT + ".model",
            ROOT + ".pipeline", ROOT + ".tune", ROOT + ".composite", ROOT + ".scaling", ROOT + ".redisbloom", ROOT + ".changelog")), packages, "a new package needs a place in the layers below");
    }

    @Test
    void noPackageCyclesAmongAllEnginePackagesIncludingTheRoot()
    {
        slices().assignedFrom(BY_PACKAGE).should().beFreeOfCycles().check(ENGINE);
    }

    @Test
    void layersDependOnlyDownwards()
    {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("pipeline").definedBy(ROOT + ".pipeline..")
            .layer("api").definedBy(ROOT)
            .layer("internal").definedBy(ROOT + ".internal..")
            .layer("composite").definedBy(ROOT + ".composite..")
            .layer("families").definedBy(ROOT + ".quotient..", ROOT + ".bloom..", ROOT + ".cuckoo..",
                ROOT + ".window..")
            .layer("spi").definedBy(ROOT + ".spi..")
            .layer("memory").definedBy(ROOT + ".memory..")
            .layer("hash").definedBy(ROOT + ".hash..")
            .layer("model").definedBy(ROOT + ".model..")
            .layer("tune").definedBy(ROOT + ".tune..")
            .layer("scaling").definedBy(ROOT + ".scaling..")
            .layer("redisbloom").definedBy(ROOT + ".redisbloom..")
            .layer("changelog").definedBy(ROOT + ".changelog..")
            .whereLayer("pipeline").mayNotBeAccessedByAnyLayer()
            .whereLayer("tune").mayNotBeAccessedByAnyLayer()
            .whereLayer("api").mayOnlyBeAccessedByLayers("pipeline", "tune")
            .whereLayer("internal").mayOnlyBeAccessedByLayers("api")
            .whereLayer("composite").mayOnlyBeAccessedByLayers("internal")
            .whereLayer("families").mayOnlyBeAccessedByLayers("internal", "composite", "scaling")
            .whereLayer("spi").mayOnlyBeAccessedByLayers("api", "internal", "composite", "families", "changelog")
            .whereLayer("changelog").mayOnlyBeAccessedByLayers("api", "internal", "composite", "scaling")
            .whereLayer("scaling").mayOnlyBeAccessedByLayers("api", "internal")
            .whereLayer("redisbloom").mayOnlyBeAccessedByLayers("api", "internal", "scaling")
            .whereLayer("memory").mayOnlyBeAccessedByLayers("spi", "internal", "composite", "families", "scaling")
            .whereLayer("hash").mayOnlyBeAccessedByLayers("pipeline", "api", "internal", "composite", "families",
                "scaling")
            .whereLayer("model").mayOnlyBeAccessedByLayers("tune", "composite", "scaling")
            .check(ENGINE);
    }

    @Test
    void familiesDoNotDependOnEachOther()
    {
        final String[] families = {"quotient", "bloom", "cuckoo", "window"};
        for (final String family : families)
        {
            for (final String other : families)
            {
                if (!other.equals(family))
                {
                    noClasses().that().resideInAPackage(ROOT + "." + family + "..")
                        .should().dependOnClassesThat().resideInAPackage(ROOT + "." + other + "..")
                        .check(ENGINE);
                }
            }
        }
    }

    @Test
    void nothingBelowTheApiNamesTheApi()
    {
        noClasses().that().resideInAnyPackage(ROOT + ".internal..", ROOT + ".composite..", ROOT + ".spi..", ROOT + ".memory..",
                ROOT + ".hash..", ROOT + ".quotient..", ROOT + ".bloom..", ROOT + ".cuckoo..", ROOT + ".window..",
                ROOT + ".model..")
            .should().dependOnClassesThat().resideInAPackage(ROOT)
            .because("the embedder API sits on top: the layers below it must not call it back or name its types")
            .check(ENGINE);
    }

    /**
     * The API keeps the SPI behind it: no public method, constructor or field of a public API type names (in its
     * signature, generic arguments included) a type of the layers below, so an embedder imports only this package.
     */
    @Test
    void theApiHandsOutNoTypeOfTheLayersBelow()
    {
        final List<String> leaks = new ArrayList<>();
        for (final JavaClass javaClass : ENGINE)
        {
            if (!javaClass.getPackageName().equals(ROOT) || !javaClass.getModifiers().contains(JavaModifier.PUBLIC))
            {
                continue;
            }
            for (final JavaMember member : javaClass.getMembers())
            {
                if (!member.getModifiers().contains(JavaModifier.PUBLIC))
                {
                    continue;
                }
                final Set<JavaClass> named = new HashSet<>();
                if (member instanceof JavaCodeUnit unit)
                {
                    named.addAll(unit.getReturnType().getAllInvolvedRawTypes());
                    unit.getParameterTypes().forEach(t -> named.addAll(t.getAllInvolvedRawTypes()));
                }
                else if (member instanceof JavaField field)
                {
                    named.addAll(field.getType().getAllInvolvedRawTypes());
                }
                for (final JavaClass type : named)
                {
                    if (type.getPackageName().startsWith(ROOT + "."))
                    {
                        leaks.add(member.getFullName() + " names " + type.getName());
                    }
                }
            }
        }
        assertEquals(List.of(), leaks);
    }
}
